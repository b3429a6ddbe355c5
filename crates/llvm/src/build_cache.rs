//! Built programs on disk: the Lockstep IR clang's output (or a SPIR-V
//! module's translation) imported to, and the build log, in codegen's
//! object cache (`$XDG_CACHE_HOME/lockstep`), so building the same program
//! again skips clang (or the translator), LLVM's optimizer and the import.

use lockstep_codegen::backend::ObjectCache;
use lockstep_frontend::Source;
use lockstep_ir as ir;
use lockstep_runtime::Built;

/// The cache key of a program's imported IR. Sources that may read other
/// files are not cached (a header could change unseen): any mention of
/// `include` (`#include`, `# include`, `%:include`, `__has_include`) or
/// `embed` rules the cache out, which errs on the side of compiling again.
pub(crate) fn key(source: &Source, options: &str) -> Option<String> {
    if source.text.contains("include") || source.text.contains("embed") {
        return None;
    }
    Some(ObjectCache::key(&[
        b"program-ir",
        source.name.as_bytes(),
        source.text.as_bytes(),
        options.as_bytes(),
        lockstep_codegen::backend::cache::compiler_version().as_bytes(),
        lockstep_codegen::build_identity().as_bytes(),
    ]))
}

/// The cache key of a SPIR-V program's imported IR: the module as
/// specialized (its bytes in host order, specialization constants set) and
/// the build options.
pub(crate) fn spirv_key(specialized: &[u8], options: &str) -> Option<String> {
    Some(ObjectCache::key(&[
        b"program-ir-spirv",
        specialized,
        options.as_bytes(),
        lockstep_codegen::backend::cache::compiler_version().as_bytes(),
        lockstep_codegen::build_identity().as_bytes(),
    ]))
}

/// A previous build of the same program (`key` from [`key`] or
/// [`spirv_key`]): its IR text (parsed and verified again) and build log.
pub(crate) fn get(key: Option<String>) -> Option<Built> {
    let key = key?;
    let bytes = ObjectCache::open()?.get(&key)?;
    let text = String::from_utf8(bytes).ok()?;
    let (log, ir_text) = text.split_once('\0')?;
    let module = ir::parse_module(ir_text).ok()?;
    ir::verify_module(&module).ok()?;
    Some(Built {
        module,
        log: log.to_string(),
    })
}

/// Stores a build for [`get`] (best effort: a cache that cannot be written
/// only costs the next build its time).
pub(crate) fn put(key: Option<String>, built: &Built) {
    let (Some(key), Some(cache)) = (key, ObjectCache::open()) else {
        return;
    };
    let text = format!("{}\0{}", built.log, ir::module_to_string(&built.module));
    let _ = cache.put(&key, text.as_bytes());
}
