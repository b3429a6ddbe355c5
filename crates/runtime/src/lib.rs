//! The runtime: contexts, programs, kernels, buffers and launches over 1-3D NDRanges, with work-groups spread over all cores.
