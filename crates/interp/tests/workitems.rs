//! Work-item queries over 1-3D ranges with offsets and non-uniform last groups.

mod common;
use common::*;
use lockstep_interp::{KernelArg, NdRange};

/// The queries recorded per work-item, in order.
const QUERIES: [(&str, Option<u8>); 27] = [
    ("global_id", Some(0)),
    ("global_id", Some(1)),
    ("global_id", Some(2)),
    ("local_id", Some(0)),
    ("local_id", Some(1)),
    ("local_id", Some(2)),
    ("group_id", Some(0)),
    ("group_id", Some(1)),
    ("group_id", Some(2)),
    ("global_size", Some(0)),
    ("global_size", Some(1)),
    ("global_size", Some(2)),
    ("local_size", Some(0)),
    ("local_size", Some(1)),
    ("local_size", Some(2)),
    ("enqueued_local_size", Some(0)),
    ("enqueued_local_size", Some(1)),
    ("enqueued_local_size", Some(2)),
    ("num_groups", Some(0)),
    ("num_groups", Some(1)),
    ("num_groups", Some(2)),
    ("global_offset", Some(0)),
    ("global_offset", Some(1)),
    ("global_offset", Some(2)),
    ("global_linear_id", None),
    ("local_linear_id", None),
    ("work_dim", None),
];
const N: usize = QUERIES.len();

/// A kernel storing every query (as i64) at out[global_linear_id * N + k].
fn kernel_text() -> String {
    let mut s = String::from(
        "kernel @ids(ptr.global) {\n    arg 0 \"out\" \"long*\" none none\nblock0(v0: ptr.global):\n    v1: i64 = global_linear_id\n",
    );
    s += &format!(
        "    v2: i64 = iconst {}\n    v3: i64 = imul v1, v2\n",
        N * 8
    );
    s += "    v4: ptr.global = ptradd v0, v3\n    v5: i64 = iconst 8\n";
    let mut ptr = 4;
    for (v, (k, (q, dim))) in (10..).zip(QUERIES.iter().enumerate()) {
        let val = v;
        match dim {
            Some(d) => s += &format!("    v{val}: i64 = {q} {d}\n"),
            None if *q == "work_dim" => {
                s += &format!("    v{}: i32 = work_dim\n", v + 100);
                s += &format!("    v{val}: i64 = zext v{}\n", v + 100);
            }
            None => s += &format!("    v{val}: i64 = {q}\n"),
        }
        if k > 0 {
            s += &format!("    v{}: ptr.global = ptradd v{ptr}, v5\n", v + 200);
            ptr = v + 200;
        }
        s += &format!("    store v{val}, v{ptr}, align 8\n");
    }
    s += "    return\n}\n";
    s
}

fn check(dim: u32, global: [u64; 3], local: [u64; 3], offset: [u64; 3]) {
    let m = module(&kernel_text());
    let total: u64 = global.iter().product();
    let mut out = vec![0xffu8; total as usize * N * 8];
    let r: NdRange = range(dim, global, local, offset);
    run(&m, "ids", &mut [KernelArg::Buffer(&mut out)], &r, false).unwrap();
    let out = to_u64s(&out);
    let groups: Vec<u64> = (0..3).map(|d| global[d].div_ceil(local[d])).collect();
    let mut seen = 0;
    for gz in 0..global[2] {
        for gy in 0..global[1] {
            for gx in 0..global[0] {
                let g = [gx, gy, gz];
                let lin = gx + gy * global[0] + gz * global[0] * global[1];
                let row = &out[lin as usize * N..(lin as usize + 1) * N];
                let grp: Vec<u64> = (0..3).map(|d| g[d] / local[d]).collect();
                let lid: Vec<u64> = (0..3).map(|d| g[d] % local[d]).collect();
                let lsz: Vec<u64> = (0..3)
                    .map(|d| local[d].min(global[d] - grp[d] * local[d]))
                    .collect();
                let mut want = Vec::new();
                want.extend((0..3).map(|d| g[d] + offset[d]));
                want.extend(lid.iter().copied());
                want.extend(grp.iter().copied());
                want.extend(global);
                want.extend(lsz.iter().copied());
                want.extend(local);
                want.extend(groups.iter().copied());
                want.extend(offset);
                want.push(lin);
                want.push(lid[0] + lid[1] * lsz[0] + lid[2] * lsz[0] * lsz[1]);
                want.push(dim as u64);
                for k in 0..N {
                    assert_eq!(
                        row[k], want[k],
                        "{} of work-item {g:?} (dim {dim}, global {global:?}, local {local:?})",
                        QUERIES[k].0
                    );
                }
                seen += 1;
            }
        }
    }
    assert_eq!(seen, total);
}

#[test]
fn one_dimension() {
    check(1, [10, 1, 1], [4, 1, 1], [0; 3]);
    check(1, [7, 1, 1], [7, 1, 1], [100, 0, 0]);
    check(1, [3, 1, 1], [8, 1, 1], [5, 0, 0]);
}

#[test]
fn two_dimensions_with_offset_and_partial_groups() {
    check(2, [7, 5, 1], [3, 2, 1], [10, 20, 0]);
    check(2, [8, 4, 1], [4, 4, 1], [0, 0, 0]);
}

#[test]
fn three_dimensions_with_offset_and_partial_groups() {
    check(3, [5, 4, 3], [2, 3, 2], [1, 2, 3]);
}

#[test]
fn unused_dimensions_are_ignored() {
    // Sizes given for dimensions past work_dim must not matter.
    let m = module(&kernel_text());
    let mut out = vec![0u8; 4 * N * 8];
    let r = range(1, [4, 9, 9], [2, 3, 3], [0, 7, 7]);
    run(&m, "ids", &mut [KernelArg::Buffer(&mut out)], &r, false).unwrap();
    let out = to_u64s(&out);
    let row = &out[3 * N..4 * N];
    assert_eq!(&row[0..3], &[3, 0, 0], "global ids");
    assert_eq!(&row[9..12], &[4, 1, 1], "global sizes");
    assert_eq!(&row[12..15], &[2, 1, 1], "local sizes");
    assert_eq!(&row[21..24], &[0, 0, 0], "offsets");
    assert_eq!(row[26], 1, "work_dim");
}
