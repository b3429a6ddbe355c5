# The OpenCL platform (ICD): Lockstep behind the standard OpenCL ICD loader.
#
#   make install-icd    builds liblockstep_icd.so (release), installs it in
#                       $(ICD_LIBDIR) and registers it with an .icd file in
#                       $(ICD_VENDORS_DIR) (root, or sudo)
#   make uninstall-icd  removes both
#   make icd-local      no root: writes target/icd-vendors/lockstep.icd;
#                       then export OCL_ICD_VENDORS=<that directory>

ICD_PREFIX ?= /usr/local
ICD_LIBDIR ?= $(ICD_PREFIX)/lib/lockstep
ICD_VENDORS_DIR ?= /etc/OpenCL/vendors
ICD_BUILT := target/release/liblockstep_icd.so
ICD_LOCAL_VENDORS := target/icd-vendors

.PHONY: icd install-icd uninstall-icd icd-local

icd: deps
	$(CARGO) build --release -p lockstep-icd

install-icd: icd
	$(SUDO) install -d $(ICD_LIBDIR) $(ICD_VENDORS_DIR)
	$(SUDO) install -m 755 $(ICD_BUILT) $(ICD_LIBDIR)/liblockstep_icd.so
	echo "$(ICD_LIBDIR)/liblockstep_icd.so" | $(SUDO) tee $(ICD_VENDORS_DIR)/lockstep.icd >/dev/null
	@echo "make: Lockstep is registered ($(ICD_VENDORS_DIR)/lockstep.icd); 'clinfo -l' lists it"

uninstall-icd:
	$(SUDO) rm -f $(ICD_VENDORS_DIR)/lockstep.icd $(ICD_LIBDIR)/liblockstep_icd.so
	-$(SUDO) rmdir $(ICD_LIBDIR) 2>/dev/null

icd-local: icd
	mkdir -p $(ICD_LOCAL_VENDORS)
	echo "$(abspath $(ICD_BUILT))" > $(ICD_LOCAL_VENDORS)/lockstep.icd
	@echo "make: without root, point the loader at the build:"
	@echo "  export OCL_ICD_VENDORS=$(abspath $(ICD_LOCAL_VENDORS))"
