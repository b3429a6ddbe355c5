// The features LLVM gives a named CPU: what `LOCKSTEP_CPU=znver3` compiles
// for. LLVM's C API can describe only the host CPU
// (LLVMGetHostCPUFeatures); the subtarget tables that know every other CPU
// are C++ (llc -mcpu=help reads the same tables). Used by target.rs.

#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace {

char *copy_out(const std::string &s) {
    char *out = static_cast<char *>(std::malloc(s.size() + 1));
    if (out) {
        std::memcpy(out, s.c_str(), s.size() + 1);
    }
    return out;
}

} // namespace

// For `cpu` on `triple` (the target must be registered): returns 0 and sets
// `*out` to LLVM's feature string for that CPU, every feature of the target
// with `+` or `-` ("+avx2,-avx512f,..."). Returns 1 when the target has no
// CPU of that name, with `*out` the target's CPU names separated by spaces;
// 2 when there is no such target, with `*out` LLVM's message. `*out` is
// malloc'd (free with lockstep_cpu_features_free).
extern "C" int lockstep_cpu_features(const char *triple, const char *cpu, char **out) {
    std::string error;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
    if (!target) {
        *out = copy_out(error);
        return 2;
    }
    // The generic subtarget first: asking it whether the name is valid keeps
    // LLVM from printing its "not a recognized processor" warning.
    std::unique_ptr<llvm::MCSubtargetInfo> generic(
        target->createMCSubtargetInfo(triple, "", ""));
    if (!generic) {
        *out = copy_out(std::string("LLVM has no subtarget information for ") + triple);
        return 2;
    }
    if (!generic->isCPUStringValid(cpu)) {
        std::string names;
        for (const llvm::SubtargetSubTypeKV &kv : generic->getAllProcessorDescriptions()) {
            if (!names.empty()) {
                names += ' ';
            }
            names += kv.Key;
        }
        *out = copy_out(names);
        return 1;
    }
    std::unique_ptr<llvm::MCSubtargetInfo> info(target->createMCSubtargetInfo(triple, cpu, ""));
    if (!info) {
        *out = copy_out(std::string("LLVM has no subtarget information for ") + triple);
        return 2;
    }
    std::string features;
    for (const llvm::SubtargetFeatureKV &kv : info->getAllProcessorFeatures()) {
        if (!features.empty()) {
            features += ',';
        }
        features += info->getFeatureBits().test(kv.Value) ? '+' : '-';
        features += kv.Key;
    }
    *out = copy_out(features);
    return 0;
}

extern "C" void lockstep_cpu_features_free(char *s) { std::free(s); }
