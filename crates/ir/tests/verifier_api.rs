//! Verifier errors that the text format cannot express (the parser rejects
//! or normalizes the input first), built through the API instead. The
//! errors the text can express are filetests under `tests/filetests/verifier`.

use cranelift_entity::EntityRef;
use lockstep_ir::{
    verify_module, AddrSpace, BlockCall, FenceFlags, FuncBuilder, FuncId, Function, GlobalData,
    GlobalId, InstData, MemScope, Module, Reloc, Signature, StackSlot, Type, WorkItemQuery,
};

/// A module holding one function `() -> ()` built by `build`, which starts
/// in the entry block.
fn module_with(build: impl FnOnce(&mut FuncBuilder)) -> Module {
    let mut func = Function::new("f", Signature::default());
    let entry = func.append_new_block();
    let mut b = FuncBuilder::new(&mut func);
    b.switch_to_block(entry);
    build(&mut b);
    let mut module = Module::new();
    module.functions.push(func);
    module
}

/// The verifier's messages for `module`.
fn errors(module: &Module) -> Vec<String> {
    match verify_module(module) {
        Ok(()) => Vec::new(),
        Err(e) => e.0.iter().map(|e| e.to_string()).collect(),
    }
}

fn assert_errors(module: &Module, expected: &[&str]) {
    let actual = errors(module);
    assert_eq!(actual.len(), expected.len(), "errors: {actual:#?}");
    for (a, e) in actual.iter().zip(expected) {
        assert!(a.contains(e), "expected {e:?} in {a:?}");
    }
}

#[test]
fn branch_to_a_block_not_in_the_layout() {
    let module = module_with(|b| {
        let outside = b.func.create_block();
        b.jump(outside, Vec::new());
    });
    assert_errors(
        &module,
        &["`jump block1`: branch to block1, which is not in the layout"],
    );
}

#[test]
fn block_twice_in_the_layout() {
    let mut module = module_with(|b| {
        b.ret(None);
    });
    let func = &mut module.functions[FuncId::new(0)];
    let entry = func.layout[0];
    func.layout.push(entry);
    assert_errors(
        &module,
        &[
            "`block0`: block appears twice in the layout",
            "instruction appears twice in the layout",
        ],
    );
}

#[test]
fn instruction_in_two_blocks() {
    let module = module_with(|b| {
        let other = b.func.append_new_block();
        let ret = b.ret(None);
        b.func.blocks[other].insts.push(ret);
    });
    assert_errors(
        &module,
        &[
            "`return`: instruction appears twice in the layout",
            "`return`: instruction's recorded block is not block1",
        ],
    );
}

#[test]
fn query_without_dimension_has_dim_zero() {
    // The printer drops the dimension of `work_dim`, so a nonzero one would
    // silently become 0 when the text is read back.
    let module = module_with(|b| {
        b.work_item(WorkItemQuery::WorkDim, 1);
        b.work_item(WorkItemQuery::LocalLinearId, 2);
        b.work_item(WorkItemQuery::GlobalId, 2);
        b.ret(None);
    });
    assert_errors(
        &module,
        &[
            "work_dim takes no dimension",
            "local_linear_id takes no dimension",
        ],
    );
}

#[test]
fn constants_fit_their_type() {
    // The parser masks constants to their type; the builder's `iconst` does too.
    let module = module_with(|b| {
        b.value(InstData::Iconst { imm: 0x100 }, Type::I8);
        b.value(InstData::Fconst { bits: 0x1_0000 }, Type::F16);
        b.value(InstData::Fconst { bits: 1 << 32 }, Type::F32);
        b.ret(None);
    });
    assert_errors(
        &module,
        &[
            "`v0: i8 = iconst 0`: constant does not fit its type",
            "constant does not fit its type",
            "constant does not fit its type",
        ],
    );
}

#[test]
fn switch_cases_fit_the_argument() {
    // 0x1ff and 0xff print the same for an i8 argument (-1).
    let module = module_with(|b| {
        let x = b.iconst(Type::I8, 3);
        let exit = b.func.append_new_block();
        let to_exit = || BlockCall {
            block: exit,
            args: Vec::new(),
        };
        b.ins(
            InstData::Switch {
                arg: x,
                default: to_exit(),
                cases: vec![(0xff, to_exit()), (0x1ff, to_exit())],
            },
            None,
        );
        b.switch_to_block(exit);
        b.ret(None);
    });
    assert_errors(
        &module,
        &["switch case value does not fit the argument's type"],
    );
}

#[test]
fn fence_flags_are_known_bits() {
    let module = module_with(|b| {
        b.ins(
            InstData::Barrier {
                flags: FenceFlags(8),
                scope: MemScope::WorkGroup,
            },
            None,
        );
        b.ret(None);
    });
    assert_errors(&module, &["unknown fence flag bits"]);
}

#[test]
fn references_to_missing_entities() {
    let mut module = module_with(|b| {
        b.call(FuncId::new(7), None, Vec::new());
        b.global_addr(GlobalId::new(3), AddrSpace::Global);
        b.stack_addr(StackSlot::new(0));
        b.ret(None);
    });
    module.globals.push(GlobalData {
        name: "g".into(),
        space: AddrSpace::Global,
        size: 8,
        align: 8,
        init: None,
        relocs: vec![
            Reloc {
                offset: u64::MAX,
                target: GlobalId::new(0),
                addend: 0,
            },
            Reloc {
                offset: 0,
                target: GlobalId::new(5),
                addend: 0,
            },
        ],
    });
    assert_errors(
        &module,
        &[
            "`@g`: relocation at offset 18446744073709551615 is out of range",
            "`@g`: relocation at offset 0 names unknown variable gv5",
            "call to unknown function fn7",
            "unknown variable gv3",
            "unknown stack slot",
        ],
    );
}

#[test]
fn valid_function_verifies() {
    let module = module_with(|b| {
        let x = b.work_item(WorkItemQuery::GlobalId, 0);
        let four = b.iconst(Type::I64, 4);
        b.binary(lockstep_ir::BinaryOp::Imul, x, four);
        b.ret(None);
    });
    assert_errors(&module, &[]);
}

#[test]
fn names_are_unique() {
    // Printed, these would not parse again: names are how the text refers
    // to functions and variables.
    let mut module = module_with(|b| {
        b.ret(None);
    });
    let twin = module.functions[FuncId::new(0)].clone();
    module.functions.push(twin);
    let var = GlobalData {
        name: "v".into(),
        space: AddrSpace::Global,
        size: 4,
        align: 4,
        init: None,
        relocs: Vec::new(),
    };
    module.globals.push(var.clone());
    module.globals.push(var);
    assert_errors(
        &module,
        &[
            "`@v`: another variable has the same name",
            "@f: another function has the same name",
        ],
    );
}

#[test]
fn each_value_is_defined_once() {
    // Two instructions sharing a result, and a block parameter that another
    // block also lists: printed, both would be "defined twice".
    let module = module_with(|b| {
        let x = b.iconst(Type::I32, 1);
        let copy = b.func.create_inst(InstData::Iconst { imm: 2 }, None);
        b.func.results[copy] = Some(x);
        let block = b.current_block().expect("in the entry block");
        b.func.append_inst(block, copy);
        let next = b.func.append_new_block();
        let p = b.func.append_block_param(next, Type::I32);
        let other = b.func.append_new_block();
        b.func.blocks[other].params.push(p);
        b.jump(next, vec![x]);
        b.switch_to_block(next);
        b.jump(other, vec![x]);
        b.switch_to_block(other);
        b.ret(None);
    });
    assert_errors(
        &module,
        &[
            "`v0: i32 = iconst 2`: result v0 is recorded as defined elsewhere",
            "`block2`: parameter v1 is recorded as defined elsewhere",
        ],
    );
}
