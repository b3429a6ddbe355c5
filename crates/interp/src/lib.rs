//! The reference interpreter: runs Lockstep IR one work-item at a time with exact OpenCL semantics; the oracle the SIMD engine is tested against.
