//! Thin read-only wrappers over LLVM's C API for the importer: values, types,
//! instructions and constants as small `Copy` handles with the queries the
//! importer needs. Nothing of LLVM leaves this crate.

use std::ffi::{CStr, CString};

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind, LLVMValueKind};

/// An LLVM value (instruction, argument, constant, global, function, block value).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Val(pub LLVMValueRef);

/// An LLVM type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ty(pub LLVMTypeRef);

/// An LLVM basic block.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bb(pub LLVMBasicBlockRef);

fn owned_string(ptr: *const std::os::raw::c_char, len: usize) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: LLVM returned a pointer to `len` bytes that live as long as the value.
    let bytes = unsafe { std::slice::from_raw_parts(ptr as *const u8, len) };
    String::from_utf8_lossy(bytes).into_owned()
}

// SAFETY (for every `unsafe` block below): the handles wrap non-null
// references obtained from a live LLVM module that outlives the importer,
// and each C API is called on the kind of value it accepts (checked by the
// callers through `opcode`, `kind` or `is_*` queries).
impl Val {
    pub fn name(self) -> String {
        let mut len = 0;
        let ptr = unsafe { LLVMGetValueName2(self.0, &mut len) };
        owned_string(ptr, len)
    }

    pub fn ty(self) -> Ty {
        Ty(unsafe { LLVMTypeOf(self.0) })
    }

    pub fn kind(self) -> LLVMValueKind {
        unsafe { LLVMGetValueKind(self.0) }
    }

    pub fn is_instruction(self) -> bool {
        !unsafe { LLVMIsAInstruction(self.0) }.is_null()
    }

    pub fn is_constant(self) -> bool {
        unsafe { LLVMIsConstant(self.0) != 0 }
    }

    pub fn is_global_variable(self) -> bool {
        !unsafe { LLVMIsAGlobalVariable(self.0) }.is_null()
    }

    pub fn is_function(self) -> bool {
        !unsafe { LLVMIsAFunction(self.0) }.is_null()
    }

    pub fn opcode(self) -> LLVMOpcode {
        unsafe { LLVMGetInstructionOpcode(self.0) }
    }

    /// The opcode of a constant expression.
    pub fn const_opcode(self) -> LLVMOpcode {
        unsafe { LLVMGetConstOpcode(self.0) }
    }

    pub fn num_operands(self) -> u32 {
        unsafe { LLVMGetNumOperands(self.0) as u32 }
    }

    pub fn operand(self, i: u32) -> Val {
        Val(unsafe { LLVMGetOperand(self.0, i) })
    }

    pub fn operands(self) -> Vec<Val> {
        (0..self.num_operands()).map(|i| self.operand(i)).collect()
    }

    /// The zero-extended value of a `ConstantInt` of at most 64 bits.
    pub fn const_int(self) -> Option<u64> {
        if unsafe { LLVMIsAConstantInt(self.0) }.is_null() || self.ty().int_width() > 64 {
            return None;
        }
        Some(unsafe { LLVMConstIntGetZExtValue(self.0) })
    }

    /// The value of a `ConstantFP`, as a double (exact for half and float).
    pub fn const_fp(self) -> Option<f64> {
        if unsafe { LLVMIsAConstantFP(self.0) }.is_null() {
            return None;
        }
        let mut loses = 0;
        Some(unsafe { LLVMConstRealGetDouble(self.0, &mut loses) })
    }

    pub fn is_undef_or_poison(self) -> bool {
        unsafe { LLVMIsUndef(self.0) != 0 || LLVMIsPoison(self.0) != 0 }
    }

    pub fn is_null_value(self) -> bool {
        unsafe { LLVMIsNull(self.0) != 0 }
    }

    /// Element `i` of a constant aggregate or vector (also for
    /// `zeroinitializer` and data sequentials).
    pub fn const_element(self, i: u32) -> Option<Val> {
        let v = unsafe { LLVMGetAggregateElement(self.0, i) };
        (!v.is_null()).then_some(Val(v))
    }

    pub fn initializer(self) -> Option<Val> {
        let v = unsafe { LLVMGetInitializer(self.0) };
        (!v.is_null()).then_some(Val(v))
    }

    pub fn is_declaration(self) -> bool {
        unsafe { LLVMIsDeclaration(self.0) != 0 }
    }

    pub fn alignment(self) -> u32 {
        unsafe { LLVMGetAlignment(self.0) }
    }

    pub fn is_volatile(self) -> bool {
        unsafe { LLVMGetVolatile(self.0) != 0 }
    }

    pub fn ordering(self) -> llvm_sys::LLVMAtomicOrdering {
        unsafe { LLVMGetOrdering(self.0) }
    }

    pub fn atomic_rmw_op(self) -> llvm_sys::LLVMAtomicRMWBinOp {
        unsafe { LLVMGetAtomicRMWBinOp(self.0) }
    }

    pub fn cmpxchg_success_ordering(self) -> llvm_sys::LLVMAtomicOrdering {
        unsafe { LLVMGetCmpXchgSuccessOrdering(self.0) }
    }

    /// True for an `or disjoint` instruction: its operands have no set bit
    /// in common, so it is an addition.
    pub fn is_disjoint_or(self) -> bool {
        // SAFETY: `self.0` is a live value; the flag is read only from an
        // `or` instruction (constant expressions have none).
        unsafe {
            !llvm_sys::core::LLVMIsAInstruction(self.0).is_null()
                && LLVMGetInstructionOpcode(self.0) == llvm_sys::LLVMOpcode::LLVMOr
                && llvm_sys::core::LLVMGetIsDisjoint(self.0) != 0
        }
    }

    pub fn icmp_predicate(self) -> llvm_sys::LLVMIntPredicate {
        unsafe { LLVMGetICmpPredicate(self.0) }
    }

    pub fn fcmp_predicate(self) -> llvm_sys::LLVMRealPredicate {
        unsafe { LLVMGetFCmpPredicate(self.0) }
    }

    pub fn gep_source_type(self) -> Ty {
        Ty(unsafe { LLVMGetGEPSourceElementType(self.0) })
    }

    pub fn allocated_type(self) -> Ty {
        Ty(unsafe { LLVMGetAllocatedType(self.0) })
    }

    pub fn called_value(self) -> Val {
        Val(unsafe { LLVMGetCalledValue(self.0) })
    }

    /// The function type a call instruction calls with.
    pub fn called_function_type(self) -> Ty {
        Ty(unsafe { LLVMGetCalledFunctionType(self.0) })
    }

    /// The type of a function (or other global) itself, not its pointer.
    pub fn global_value_type(self) -> Ty {
        Ty(unsafe { LLVMGlobalGetValueType(self.0) })
    }

    pub fn num_arg_operands(self) -> u32 {
        unsafe { LLVMGetNumArgOperands(self.0) }
    }

    pub fn incoming(self) -> Vec<(Val, Bb)> {
        let n = unsafe { LLVMCountIncoming(self.0) };
        (0..n)
            .map(|i| unsafe {
                (
                    Val(LLVMGetIncomingValue(self.0, i)),
                    Bb(LLVMGetIncomingBlock(self.0, i)),
                )
            })
            .collect()
    }

    /// Indices of `extractvalue` / `insertvalue`.
    pub fn indices(self) -> Vec<u32> {
        let n = unsafe { LLVMGetNumIndices(self.0) } as usize;
        let ptr = unsafe { LLVMGetIndices(self.0) };
        if ptr.is_null() {
            return Vec::new();
        }
        unsafe { std::slice::from_raw_parts(ptr, n) }.to_vec()
    }

    /// The mask of a `shufflevector` (`None` for undefined elements).
    pub fn shuffle_mask(self) -> Vec<Option<u32>> {
        let n = unsafe { LLVMGetNumMaskElements(self.0) };
        let undef = unsafe { LLVMGetUndefMaskElem() };
        (0..n)
            .map(|i| {
                let m = unsafe { LLVMGetMaskValue(self.0, i) };
                (m != undef && m >= 0).then_some(m as u32)
            })
            .collect()
    }

    pub fn successors(self) -> Vec<Bb> {
        let n = unsafe { LLVMGetNumSuccessors(self.0) };
        (0..n)
            .map(|i| Bb(unsafe { LLVMGetSuccessor(self.0, i) }))
            .collect()
    }

    /// Debug location (line, column) of an instruction, if it has one.
    pub fn debug_loc(self) -> Option<(u32, u32)> {
        let line = unsafe { LLVMGetDebugLocLine(self.0) };
        (line != 0).then(|| (line, unsafe { LLVMGetDebugLocColumn(self.0) }))
    }

    // Functions.
    pub fn params(self) -> Vec<Val> {
        let n = unsafe { LLVMCountParams(self.0) };
        (0..n)
            .map(|i| Val(unsafe { LLVMGetParam(self.0, i) }))
            .collect()
    }

    pub fn basic_blocks(self) -> Vec<Bb> {
        let mut out = Vec::new();
        let mut b = unsafe { LLVMGetFirstBasicBlock(self.0) };
        while !b.is_null() {
            out.push(Bb(b));
            b = unsafe { LLVMGetNextBasicBlock(b) };
        }
        out
    }

    pub fn calling_conv(self) -> u32 {
        unsafe { LLVMGetFunctionCallConv(self.0) }
    }

    /// The type given to a type attribute (`byval(T)`) of parameter `index` (0-based).
    pub fn param_type_attribute(self, index: u32, attr: &str) -> Option<Ty> {
        let kind =
            unsafe { LLVMGetEnumAttributeKindForName(attr.as_ptr() as *const _, attr.len()) };
        let a = unsafe { LLVMGetEnumAttributeAtIndex(self.0, index + 1, kind) };
        (!a.is_null()).then(|| Ty(unsafe { LLVMGetTypeAttributeValue(a) }))
    }

    /// The operands of the function metadata node `kind` (e.g. `kernel_arg_name`).
    pub fn function_metadata(self, kind: &str) -> Option<Vec<Val>> {
        let mut count = 0;
        let entries = unsafe { llvm_sys::core::LLVMGlobalCopyAllMetadata(self.0, &mut count) };
        if entries.is_null() {
            return None;
        }
        let ctx = unsafe { LLVMGetTypeContext(LLVMTypeOf(self.0)) };
        let wanted =
            unsafe { LLVMGetMDKindIDInContext(ctx, kind.as_ptr() as *const _, kind.len() as u32) };
        let mut result = None;
        for i in 0..count as u32 {
            if unsafe { llvm_sys::core::LLVMValueMetadataEntriesGetKind(entries, i) } == wanted {
                let md = unsafe { llvm_sys::core::LLVMValueMetadataEntriesGetMetadata(entries, i) };
                let node = unsafe { LLVMMetadataAsValue(ctx, md) };
                let n = unsafe { LLVMGetMDNodeNumOperands(node) } as usize;
                let mut ops = vec![std::ptr::null_mut(); n];
                unsafe { LLVMGetMDNodeOperands(node, ops.as_mut_ptr()) };
                result = Some(ops.into_iter().map(Val).collect());
            }
        }
        unsafe { llvm_sys::core::LLVMDisposeValueMetadataEntries(entries) };
        result
    }

    /// The string of an `MDString` metadata value.
    pub fn md_string(self) -> Option<String> {
        if self.0.is_null() {
            return None;
        }
        let mut len = 0;
        let ptr = unsafe { LLVMGetMDString(self.0, &mut len) };
        (!ptr.is_null()).then(|| owned_string(ptr, len as usize))
    }

    /// Printed LLVM form, for error messages.
    pub fn print(self) -> String {
        let s = unsafe { LLVMPrintValueToString(self.0) };
        let out = unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned();
        unsafe { LLVMDisposeMessage(s) };
        out.trim().to_string()
    }
}

impl Bb {
    pub fn instructions(self) -> Vec<Val> {
        let mut out = Vec::new();
        let mut i = unsafe { LLVMGetFirstInstruction(self.0) };
        while !i.is_null() {
            out.push(Val(i));
            i = unsafe { LLVMGetNextInstruction(i) };
        }
        out
    }

    pub fn terminator(self) -> Option<Val> {
        let t = unsafe { LLVMGetBasicBlockTerminator(self.0) };
        (!t.is_null()).then_some(Val(t))
    }
}

impl Ty {
    pub fn kind(self) -> LLVMTypeKind {
        unsafe { LLVMGetTypeKind(self.0) }
    }

    pub fn int_width(self) -> u32 {
        match self.kind() {
            LLVMTypeKind::LLVMIntegerTypeKind => unsafe { LLVMGetIntTypeWidth(self.0) },
            _ => 0,
        }
    }

    pub fn vector_len(self) -> u32 {
        unsafe { LLVMGetVectorSize(self.0) }
    }

    pub fn array_len(self) -> u64 {
        unsafe { LLVMGetArrayLength2(self.0) }
    }

    /// Element type of a vector or array.
    pub fn element(self) -> Ty {
        Ty(unsafe { LLVMGetElementType(self.0) })
    }

    pub fn struct_fields(self) -> Vec<Ty> {
        let n = unsafe { LLVMCountStructElementTypes(self.0) };
        (0..n)
            .map(|i| Ty(unsafe { LLVMStructGetTypeAtIndex(self.0, i) }))
            .collect()
    }

    pub fn pointer_addr_space(self) -> u32 {
        unsafe { LLVMGetPointerAddressSpace(self.0) }
    }

    pub fn print(self) -> String {
        let s = unsafe { LLVMPrintTypeToString(self.0) };
        let out = unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned();
        unsafe { LLVMDisposeMessage(s) };
        out
    }
}

/// The module's data layout, for sizes and field offsets.
pub struct Layout(LLVMTargetDataRef);

impl Layout {
    pub fn of_module(module: LLVMModuleRef) -> Layout {
        let s = unsafe { LLVMGetDataLayoutStr(module) };
        let owned = unsafe { CStr::from_ptr(s) }.to_owned();
        Layout::from_string(&owned)
    }

    fn from_string(s: &CStr) -> Layout {
        let s = CString::from(s);
        Layout(unsafe { LLVMCreateTargetData(s.as_ptr()) })
    }

    /// Bytes between consecutive elements of this type in an array.
    pub fn alloc_size(&self, ty: Ty) -> u64 {
        unsafe { LLVMABISizeOfType(self.0, ty.0) }
    }

    pub fn abi_align(&self, ty: Ty) -> u32 {
        unsafe { LLVMABIAlignmentOfType(self.0, ty.0) }
    }

    pub fn field_offset(&self, ty: Ty, field: u32) -> u64 {
        unsafe { LLVMOffsetOfElement(self.0, ty.0, field) }
    }
}

impl Drop for Layout {
    fn drop(&mut self) {
        unsafe { LLVMDisposeTargetData(self.0) }
    }
}
