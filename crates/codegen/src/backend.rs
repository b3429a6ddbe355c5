//! The back end: the host target, LLVM's optimizer and code generator, the
//! ORC JIT that loads compiled gangs, and the on-disk object cache.
