//! Lane refill through the public API: kernels whose work-items run loops
//! of very different lengths give the same results with refill off, on
//! (every lane taking new work-items, a call running a range of groups:
//! 2-D ranges with offsets and partial last groups) and auto (whose first
//! launches run alternate runs of groups with and without refill to
//! measure which is faster), launched repeatedly.

use lockstep_runtime::{Buffer, Context, NDRange, Program, RefillMode};

const SKEWED: &str = "
kernel void skewed(global const uint *len, global ulong *out, uint width) {
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t i = (y - get_global_offset(1)) * width + (x - get_global_offset(0));
    ulong acc = get_group_id(0) * 1000000 + get_local_id(1) * 1000 + get_local_id(0);
    for (uint k = 0; k < len[i]; k++)
        acc = acc * 6364136223846793005ul + k;
    out[i] = acc ^ (get_global_linear_id() << 40);
}
";

/// What `skewed` computes, in Rust.
fn expected(len: &[u32], width: u64, global: [u64; 2], local: [u64; 2]) -> Vec<u64> {
    let mut out = vec![0u64; len.len()];
    for y in 0..global[1] {
        for x in 0..global[0] {
            let i = (y * width + x) as usize;
            // Group and local ids count from the global offset.
            let mut acc = (x / local[0]) * 1_000_000 + (y % local[1]) * 1000 + x % local[0];
            for k in 0..len[i] as u64 {
                acc = acc.wrapping_mul(6364136223846793005).wrapping_add(k);
            }
            let linear = y * global[0] + x;
            out[i] = acc ^ (linear << 40);
        }
    }
    out
}

fn lengths(n: usize) -> Vec<u32> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state % 16 == 0 {
                200 + (state >> 32) as u32 % 300
            } else {
                (state >> 40) as u32 % 8
            }
        })
        .collect()
}

fn check(mode: RefillMode, global: [u64; 2], local: [u64; 2], offset: [u64; 2]) {
    let mut ctx: Context = lockstep_llvm::context();
    ctx.set_refill(mode);
    let program = Program::build(&ctx, SKEWED, "").expect("builds");
    let mut kernel = program.kernel("skewed").expect("kernel");
    let n = (global[0] * global[1]) as usize;
    let len = lengths(n);
    let want = expected(&len, global[0], global, local);
    let lens = Buffer::from_slice(&len);
    let out = Buffer::<u64>::zeroed(n);
    kernel.set_arg(0, &lens).unwrap();
    kernel.set_arg(1, &out).unwrap();
    kernel.set_arg(2, global[0] as u32).unwrap();
    let range = NDRange::new(2, [global[0], global[1], 1])
        .local([local[0], local[1], 1])
        .offset([offset[0], offset[1], 0]);
    for launch in 0..6 {
        out.write(&vec![0; n]);
        ctx.launch(&kernel, &range).expect("launches");
        let got = out.read();
        if let Some(i) = (0..n).find(|&i| got[i] != want[i]) {
            panic!(
                "refill {mode}, global {global:?} local {local:?} offset {offset:?}, \
                 launch {launch}: out[{i}] = {:#x}, expected {:#x}",
                got[i], want[i]
            );
        }
    }
}

#[test]
fn refill_off_on_and_auto_agree_with_the_reference() {
    for mode in RefillMode::ALL {
        check(mode, [1024, 8], [32, 2], [0, 0]);
        // Partial last groups in both dimensions, and a global offset.
        check(mode, [1000, 7], [48, 3], [5, 3]);
    }
}
