//! A small typed-agnostic layer over LLVM's C builder API: the emitter
//! builds scalar and `<W x T>` instructions alike through these helpers.

use std::ffi::CString;

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMIntPredicate, LLVMRealPredicate};

/// An LLVM value handle (scalar or vector).
pub type V = LLVMValueRef;
/// An LLVM type handle.
pub type T = LLVMTypeRef;

fn cstr(s: &str) -> CString {
    CString::new(s).expect("LLVM names have no NUL")
}

/// The LLVM context, module and builder the emitter writes into.
pub struct Llvm {
    pub ctx: LLVMContextRef,
    pub module: LLVMModuleRef,
    pub builder: LLVMBuilderRef,
}

// SAFETY (for every `unsafe` block below): `ctx`, `module` and `builder`
// are live for the emitter's lifetime (owned by the caller's inkwell
// objects), and the values and types passed in were created in `ctx`.
impl Llvm {
    pub fn new(ctx: LLVMContextRef, module: LLVMModuleRef) -> Llvm {
        let builder = unsafe { LLVMCreateBuilderInContext(ctx) };
        Llvm {
            ctx,
            module,
            builder,
        }
    }

    // ---- Types ----
    pub fn int(&self, bits: u32) -> T {
        unsafe { LLVMIntTypeInContext(self.ctx, bits) }
    }
    pub fn i1(&self) -> T {
        self.int(1)
    }
    pub fn i8(&self) -> T {
        self.int(8)
    }
    pub fn i32(&self) -> T {
        self.int(32)
    }
    pub fn i64(&self) -> T {
        self.int(64)
    }
    pub fn f16(&self) -> T {
        unsafe { LLVMHalfTypeInContext(self.ctx) }
    }
    pub fn f32(&self) -> T {
        unsafe { LLVMFloatTypeInContext(self.ctx) }
    }
    pub fn f64(&self) -> T {
        unsafe { LLVMDoubleTypeInContext(self.ctx) }
    }
    pub fn ptr(&self) -> T {
        unsafe { LLVMPointerTypeInContext(self.ctx, 0) }
    }
    pub fn void(&self) -> T {
        unsafe { LLVMVoidTypeInContext(self.ctx) }
    }
    pub fn vec(&self, elem: T, n: u32) -> T {
        unsafe { LLVMVectorType(elem, n) }
    }
    pub fn array(&self, elem: T, n: u64) -> T {
        unsafe { LLVMArrayType2(elem, n) }
    }
    pub fn func_type(&self, ret: T, params: &[T]) -> T {
        let mut params = params.to_vec();
        unsafe { LLVMFunctionType(ret, params.as_mut_ptr(), params.len() as u32, 0) }
    }
    pub fn type_of(&self, v: V) -> T {
        unsafe { LLVMTypeOf(v) }
    }
    pub fn is_vector(&self, v: V) -> bool {
        unsafe { LLVMGetTypeKind(LLVMTypeOf(v)) == llvm_sys::LLVMTypeKind::LLVMVectorTypeKind }
    }
    pub fn elem_type(&self, t: T) -> T {
        unsafe { LLVMGetElementType(t) }
    }

    // ---- Constants ----
    pub fn const_int(&self, t: T, v: u64) -> V {
        unsafe { LLVMConstInt(t, v, 0) }
    }
    /// A float constant of type `t` (`width` bits) from its IEEE bits, so
    /// NaN payloads survive.
    pub fn const_real_bits(&self, t: T, width: u32, bits: u64) -> V {
        let i = self.const_int(self.int(width), bits);
        unsafe { LLVMConstBitCast(i, t) }
    }
    pub fn const_null(&self, t: T) -> V {
        unsafe { LLVMConstNull(t) }
    }
    pub fn const_vector(&self, elems: &[V]) -> V {
        let mut e = elems.to_vec();
        unsafe { LLVMConstVector(e.as_mut_ptr(), e.len() as u32) }
    }
    pub fn poison(&self, t: T) -> V {
        unsafe { LLVMGetPoison(t) }
    }

    // ---- Functions and blocks ----
    pub fn add_function(&self, name: &str, ty: T) -> V {
        let n = cstr(name);
        unsafe { LLVMAddFunction(self.module, n.as_ptr(), ty) }
    }
    pub fn get_function(&self, name: &str) -> Option<V> {
        let n = cstr(name);
        let f = unsafe { LLVMGetNamedFunction(self.module, n.as_ptr()) };
        (!f.is_null()).then_some(f)
    }
    pub fn param(&self, f: V, i: u32) -> V {
        unsafe { LLVMGetParam(f, i) }
    }
    pub fn append_block(&self, f: V, name: &str) -> LLVMBasicBlockRef {
        let n = cstr(name);
        unsafe { LLVMAppendBasicBlockInContext(self.ctx, f, n.as_ptr()) }
    }
    pub fn position_at_end(&self, bb: LLVMBasicBlockRef) {
        unsafe { LLVMPositionBuilderAtEnd(self.builder, bb) }
    }
    pub fn current_block(&self) -> LLVMBasicBlockRef {
        unsafe { LLVMGetInsertBlock(self.builder) }
    }
    pub fn add_fn_attr(&self, f: V, name: &str) {
        self.add_fn_attr_value(f, name, 0);
    }
    /// A function attribute with an integer value (`memory` takes its
    /// encoded effects).
    pub fn add_fn_attr_value(&self, f: V, name: &str, value: u64) {
        unsafe {
            let kind = LLVMGetEnumAttributeKindForName(name.as_ptr() as *const _, name.len());
            let attr = LLVMCreateEnumAttribute(self.ctx, kind, value);
            LLVMAddAttributeAtIndex(f, llvm_sys::LLVMAttributeFunctionIndex, attr);
        }
    }
    pub fn set_internal(&self, f: V) {
        unsafe { LLVMSetLinkage(f, llvm_sys::LLVMLinkage::LLVMInternalLinkage) }
    }

    // ---- Control flow ----
    pub fn br(&self, bb: LLVMBasicBlockRef) {
        unsafe { LLVMBuildBr(self.builder, bb) };
    }
    pub fn cond_br(&self, c: V, t: LLVMBasicBlockRef, f: LLVMBasicBlockRef) {
        unsafe { LLVMBuildCondBr(self.builder, c, t, f) };
    }
    pub fn ret_void(&self) {
        unsafe { LLVMBuildRetVoid(self.builder) };
    }
    pub fn unreachable(&self) {
        unsafe { LLVMBuildUnreachable(self.builder) };
    }
    pub fn phi(&self, t: T) -> V {
        unsafe { LLVMBuildPhi(self.builder, t, c"".as_ptr()) }
    }
    pub fn add_incoming(&self, phi: V, v: V, bb: LLVMBasicBlockRef) {
        let mut vs = [v];
        let mut bbs = [bb];
        unsafe { LLVMAddIncoming(phi, vs.as_mut_ptr(), bbs.as_mut_ptr(), 1) }
    }
    pub fn switch(&self, v: V, default: LLVMBasicBlockRef, cases: &[(V, LLVMBasicBlockRef)]) {
        let sw = unsafe { LLVMBuildSwitch(self.builder, v, default, cases.len() as u32) };
        for &(c, bb) in cases {
            unsafe { LLVMAddCase(sw, c, bb) };
        }
    }

    // ---- Memory ----
    pub fn alloca(&self, t: T) -> V {
        unsafe { LLVMBuildAlloca(self.builder, t, c"".as_ptr()) }
    }
    pub fn alloca_aligned(&self, t: T, align: u32) -> V {
        let a = self.alloca(t);
        unsafe { LLVMSetAlignment(a, align) };
        a
    }
    pub fn load(&self, t: T, p: V, align: u32) -> V {
        let v = unsafe { LLVMBuildLoad2(self.builder, t, p, c"".as_ptr()) };
        unsafe { LLVMSetAlignment(v, align.max(1)) };
        v
    }
    pub fn store(&self, v: V, p: V, align: u32) -> V {
        let s = unsafe { LLVMBuildStore(self.builder, v, p) };
        unsafe { LLVMSetAlignment(s, align.max(1)) };
        s
    }
    pub fn set_volatile(&self, inst: V) {
        unsafe { LLVMSetVolatile(inst, 1) }
    }
    /// Marks the load `inst` `!invariant.load`: its memory does not change
    /// while the code runs, so LLVM may hoist it out of loops that store
    /// elsewhere (a work-group's context and kernel arguments, read in the
    /// loop over a group's gangs).
    pub fn set_invariant_load(&self, inst: V) {
        const KIND: &str = "invariant.load";
        unsafe {
            let kind = llvm_sys::core::LLVMGetMDKindIDInContext(
                self.ctx,
                KIND.as_ptr().cast(),
                KIND.len() as u32,
            );
            let empty = llvm_sys::core::LLVMMDNodeInContext2(self.ctx, std::ptr::null_mut(), 0);
            let node = llvm_sys::core::LLVMMetadataAsValue(self.ctx, empty);
            llvm_sys::core::LLVMSetMetadata(inst, kind, node);
        }
    }
    pub fn gep_i8(&self, p: V, offset: V) -> V {
        let mut idx = [offset];
        unsafe {
            LLVMBuildGEP2(
                self.builder,
                self.i8(),
                p,
                idx.as_mut_ptr(),
                1,
                c"".as_ptr(),
            )
        }
    }

    // ---- Arithmetic (scalar or vector operands alike) ----
    pub fn add(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildAdd(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn sub(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildSub(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn mul(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildMul(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn udiv(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildUDiv(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn sdiv(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildSDiv(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn urem(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildURem(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn srem(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildSRem(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn and(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildAnd(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn or(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildOr(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn xor(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildXor(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn not(&self, a: V) -> V {
        unsafe { LLVMBuildNot(self.builder, a, c"".as_ptr()) }
    }
    pub fn neg(&self, a: V) -> V {
        unsafe { LLVMBuildNeg(self.builder, a, c"".as_ptr()) }
    }
    pub fn shl(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildShl(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn lshr(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildLShr(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn ashr(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildAShr(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn fadd(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildFAdd(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn fsub(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildFSub(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn fmul(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildFMul(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn fdiv(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildFDiv(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn frem(&self, a: V, b: V) -> V {
        unsafe { LLVMBuildFRem(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn fneg(&self, a: V) -> V {
        unsafe { LLVMBuildFNeg(self.builder, a, c"".as_ptr()) }
    }
    pub fn icmp(&self, p: LLVMIntPredicate, a: V, b: V) -> V {
        unsafe { LLVMBuildICmp(self.builder, p, a, b, c"".as_ptr()) }
    }
    pub fn fcmp(&self, p: LLVMRealPredicate, a: V, b: V) -> V {
        unsafe { LLVMBuildFCmp(self.builder, p, a, b, c"".as_ptr()) }
    }
    pub fn select(&self, c: V, a: V, b: V) -> V {
        unsafe { LLVMBuildSelect(self.builder, c, a, b, c"".as_ptr()) }
    }
    pub fn cast(&self, op: llvm_sys::LLVMOpcode, v: V, t: T) -> V {
        unsafe { LLVMBuildCast(self.builder, op, v, t, c"".as_ptr()) }
    }
    /// An integer cast to `t`: zero-extends, truncates or keeps `v`.
    pub fn int_cast(&self, v: V, t: T) -> V {
        unsafe { llvm_sys::core::LLVMBuildIntCast2(self.builder, v, t, 0, c"".as_ptr()) }
    }
    /// Lane `lane` (an integer value) of `vec`.
    pub fn extract_dyn(&self, vec: V, lane: V) -> V {
        unsafe { LLVMBuildExtractElement(self.builder, vec, lane, c"".as_ptr()) }
    }
    pub fn bitcast(&self, v: V, t: T) -> V {
        unsafe { LLVMBuildBitCast(self.builder, v, t, c"".as_ptr()) }
    }
    pub fn extract(&self, vec: V, lane: u32) -> V {
        unsafe {
            LLVMBuildExtractElement(
                self.builder,
                vec,
                self.const_int(self.i32(), lane as u64),
                c"".as_ptr(),
            )
        }
    }
    pub fn insert(&self, vec: V, v: V, lane: u32) -> V {
        unsafe {
            LLVMBuildInsertElement(
                self.builder,
                vec,
                v,
                self.const_int(self.i32(), lane as u64),
                c"".as_ptr(),
            )
        }
    }
    /// The vector whose lane `i` is lane `mask[i]` of `a` and `b` side by
    /// side (`b`'s lanes numbered after `a`'s).
    pub fn shuffle(&self, a: V, b: V, mask: &[u32]) -> V {
        let lanes: Vec<V> = mask
            .iter()
            .map(|&i| self.const_int(self.i32(), i as u64))
            .collect();
        let m = self.const_vector(&lanes);
        unsafe { LLVMBuildShuffleVector(self.builder, a, b, m, c"".as_ptr()) }
    }
    /// The number of lanes of vector `v`.
    pub fn vec_len(&self, v: V) -> u32 {
        unsafe { llvm_sys::core::LLVMGetVectorSize(self.type_of(v)) }
    }
    /// A vector of `n` copies of scalar `v`.
    pub fn splat(&self, v: V, n: u32) -> V {
        let t = self.vec(self.type_of(v), n);
        let one = self.insert(self.poison(t), v, 0);
        let mask = self.const_null(self.vec(self.i32(), n));
        unsafe { LLVMBuildShuffleVector(self.builder, one, self.poison(t), mask, c"".as_ptr()) }
    }

    // ---- Calls ----
    pub fn call(&self, fty: T, f: V, args: &[V]) -> V {
        let mut a = args.to_vec();
        unsafe {
            LLVMBuildCall2(
                self.builder,
                fty,
                f,
                a.as_mut_ptr(),
                a.len() as u32,
                c"".as_ptr(),
            )
        }
    }

    /// Calls the overloaded intrinsic `name` instantiated at `overloads`.
    pub fn intrinsic(&self, name: &str, overloads: &[T], args: &[V]) -> V {
        let id =
            unsafe { llvm_sys::core::LLVMLookupIntrinsicID(name.as_ptr() as *const _, name.len()) };
        assert!(id != 0, "unknown intrinsic {name}");
        let mut tys = overloads.to_vec();
        let f =
            unsafe { LLVMGetIntrinsicDeclaration(self.module, id, tys.as_mut_ptr(), tys.len()) };
        let fty = unsafe { LLVMIntrinsicGetType(self.ctx, id, tys.as_mut_ptr(), tys.len()) };
        self.call(fty, f, args)
    }

    /// `v` passed through an empty inline assembly statement: the same
    /// value, but LLVM's optimizations cannot see where it came from.
    pub fn opaque(&self, v: V) -> V {
        let t = self.type_of(v);
        let fty = self.func_type(t, &[t]);
        let (code, constraints) = ("", "=r,0");
        let asm = unsafe {
            llvm_sys::core::LLVMGetInlineAsm(
                fty,
                code.as_ptr() as *const _,
                code.len(),
                constraints.as_ptr() as *const _,
                constraints.len(),
                0,
                0,
                llvm_sys::LLVMInlineAsmDialect::LLVMInlineAsmDialectATT,
                0,
            )
        };
        self.call(fty, asm, &[v])
    }

    /// `llvm.masked.load` of the vector type `t` at `p` (`align`-byte
    /// aligned): the lanes `mask` has set; the others are poison.
    pub fn masked_load(&self, t: T, p: V, align: u32, mask: V) -> V {
        let align = self.const_int(self.i32(), align as u64);
        self.intrinsic(
            "llvm.masked.load",
            &[t, self.ptr()],
            &[p, align, mask, self.poison(t)],
        )
    }

    /// `llvm.masked.store` of the vector `v` at `p` (`align`-byte aligned):
    /// the lanes `mask` has set.
    pub fn masked_store(&self, v: V, p: V, align: u32, mask: V) -> V {
        let align = self.const_int(self.i32(), align as u64);
        self.intrinsic(
            "llvm.masked.store",
            &[self.type_of(v), self.ptr()],
            &[v, p, align, mask],
        )
    }

    /// Declares (once) and calls an external C function.
    pub fn call_extern(&self, name: &str, ret: T, params: &[T], args: &[V]) -> V {
        let fty = self.func_type(ret, params);
        let f = self
            .get_function(name)
            .unwrap_or_else(|| self.add_function(name, fty));
        self.call(fty, f, args)
    }

    /// Declares (once) and calls an external function that only computes
    /// its result from its arguments (math): it neither reads nor writes
    /// memory, always returns and does not unwind, so LLVM may merge equal
    /// calls, drop unused ones and keep memory values in registers across
    /// them.
    pub fn call_pure(&self, name: &str, ret: T, params: &[T], args: &[V]) -> V {
        let fty = self.func_type(ret, params);
        let f = self.get_function(name).unwrap_or_else(|| {
            let f = self.add_function(name, fty);
            for attr in ["nounwind", "willreturn", "nosync", "nofree"] {
                self.add_fn_attr(f, attr);
            }
            // `memory(none)`: the memory effects attribute, no location.
            self.add_fn_attr_value(f, "memory", 0);
            f
        });
        self.call(fty, f, args)
    }
}

impl Drop for Llvm {
    fn drop(&mut self) {
        // SAFETY: the builder was created in `new` and is not used after this.
        unsafe { LLVMDisposeBuilder(self.builder) }
    }
}
