# The OpenCL platform (ICD): install-icd.
