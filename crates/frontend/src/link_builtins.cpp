// Links the builtin library into a program's module with only what the
// program uses: the library is read lazily (a function's body is read from
// the bitcode only when it is needed) and linked with
// Linker::LinkOnlyNeeded (a library definition is brought in only when the
// program, or a definition already brought in, refers to it). LLVM's C API
// has neither the lazy reader's metadata option nor the linker's flags.
// Used by optimize.rs.

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"

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

// Collects the linker's error messages instead of letting LLVM print them
// and exit the process (what it does with an error nobody handles).
struct CollectErrors : llvm::DiagnosticHandler {
    std::string *messages;

    explicit CollectErrors(std::string *messages) : messages(messages) {}

    bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
        if (info.getSeverity() == llvm::DS_Error) {
            llvm::raw_string_ostream out(*messages);
            llvm::DiagnosticPrinterRawOStream printer(out);
            if (!messages->empty()) {
                out << "\n";
            }
            info.print(printer);
        }
        return true;
    }
};

} // namespace

// Reads the `len` bytes of bitcode at `data` lazily into a module of `ctx`:
// its globals and function prototypes now, each function's body when it is
// materialized (the linker below does that), metadata too. The bytes are
// not copied: they must outlive the module. Returns 0 and sets `*out`, or
// returns 1 with `*error` LLVM's message (malloc'd; free with
// lockstep_link_free).
extern "C" int lockstep_lazy_bitcode_module(LLVMContextRef ctx, const char *data, size_t len,
                                            const char *name, LLVMModuleRef *out, char **error) {
    llvm::MemoryBufferRef buffer(llvm::StringRef(data, len), name);
    llvm::Expected<std::unique_ptr<llvm::Module>> module =
        llvm::getLazyBitcodeModule(buffer, *llvm::unwrap(ctx), /*ShouldLazyLoadMetadata=*/true);
    if (!module) {
        *error = copy_out(llvm::toString(module.takeError()));
        return 1;
    }
    *out = llvm::wrap(module->release());
    return 0;
}

// Links `src` (which this consumes, also on error) into `dst`, bringing in
// only the definitions `dst` needs: those of its declarations, and
// transitively what they refer to. Returns 0, or 1 with `*error` the
// linker's messages (malloc'd; free with lockstep_link_free).
extern "C" int lockstep_link_only_needed(LLVMModuleRef dst, LLVMModuleRef src, char **error) {
    llvm::Module &dest = *llvm::unwrap(dst);
    std::unique_ptr<llvm::Module> source(llvm::unwrap(src));
    llvm::LLVMContext &ctx = dest.getContext();
    std::string messages;
    std::unique_ptr<llvm::DiagnosticHandler> previous = ctx.getDiagnosticHandler();
    ctx.setDiagnosticHandler(std::make_unique<CollectErrors>(&messages));
    bool failed = llvm::Linker::linkModules(dest, std::move(source), llvm::Linker::LinkOnlyNeeded);
    ctx.setDiagnosticHandler(std::move(previous));
    if (failed) {
        *error = copy_out(messages.empty() ? std::string("the linker failed") : messages);
        return 1;
    }
    return 0;
}

extern "C" void lockstep_link_free(char *s) { std::free(s); }
