//! The SPIR-V module check (`clCreateProgramWithIL`'s, before the
//! translator runs) on arbitrary bytes: an error or a module, never a
//! panic; a module specializes (every constant set from the input's last
//! bytes) into words that check again.

#![no_main]

use libfuzzer_sys::fuzz_target;
use lockstep_frontend::spirv::{Module, SpecValue};

fuzz_target!(|data: &[u8]| {
    let Ok(module) = Module::parse(data) else {
        return;
    };
    let fill = data.last().copied().unwrap_or(0);
    let spec: Vec<SpecValue> = module
        .spec_constants
        .iter()
        .map(|c| (c.spec_id, vec![fill; c.ty.size()]))
        .collect();
    for (id, value) in &spec {
        assert_eq!(module.check_spec_value(*id, value.len()), Ok(()));
    }
    let again = Module::parse(&module.specialized_bytes(&spec)).expect("specialized module checks");
    assert_eq!(again.spec_constants.len(), module.spec_constants.len());
    assert_eq!(again.entry_points, module.entry_points);
});
