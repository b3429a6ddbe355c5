//! The presentation helpers: the annotated listing and the Graphviz view.

use lockstep_passes::{cfg_dot, uniformity_listing, Uniformity, UniformityConfig};

const SRC: &str = r#"
kernel @k(ptr.global, i32) {
    arg 0 "out" "int*" none none
    arg 1 "n" "int" none none
block0(v0: ptr.global, v1: i32):
    v2: i64 = local_id 0
    v3: i32 = trunc v2
    v4: i32 = iconst 0
    v5: i1 = icmp sgt v1, v4
    v7: i32 = iconst 1
    brif v5, block1(v4), block2(v4)
block1(v10: i32):
    v11: i1 = icmp slt v10, v3
    v12: i32 = iadd v10, v7
    brif v11, block2(v12), block3(v12)
block2(v13: i32):
    v14: i1 = icmp slt v13, v1
    v15: i32 = iadd v13, v7
    brif v14, block1(v15), block3(v15)
block3(v16: i32):
    jump block4
block4:
    brif v5, block4, block5
block5:
    return
block6:
    jump block5
}
"#;

fn analyse() -> (lockstep_ir::Module, lockstep_ir::FuncId, Uniformity) {
    let module = lockstep_ir::parse_module(SRC).expect("parses");
    let id = module.function_by_name("k").expect("has @k");
    let info = Uniformity::for_function(&module.functions[id], &UniformityConfig::default());
    (module, id, info)
}

#[test]
fn listing_annotates_every_line() {
    let (module, id, info) = analyse();
    let text = uniformity_listing(&module, id, &info);
    for line in [
        "    v2: i64 = local_id 0 ; consecutive(1)",
        "    brif v5, block1(v4), block2(v4) ; uniform",
        "block1(v10: i32): ; v10 uniform; loop0 irreducible entry, divergent",
        "    brif v11, block2(v12), block3(v12) ; divergent, joins at block3",
        "    v12: i32 = iadd v10, v7 ; uniform (varying outside loop0)",
        "block3(v16: i32): ; v16 varying; join of block1",
        "block4: ; loop1 header",
        "block6: ; unreachable",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
}

#[test]
fn dot_marks_divergence_loops_and_irreducible_regions() {
    let (module, id, info) = analyse();
    let dot = cfg_dot(&module, id, &info);
    assert!(dot.starts_with("digraph \"k\" {"), "{dot}");
    assert!(dot.trim_end().ends_with('}'));
    for needle in [
        // The irreducible region as an orange cluster, its entries filled.
        "subgraph cluster_loop0 {",
        "label=\"loop0 irreducible, entries block1, block2 (divergent)\"; color=orange;",
        "block1 [label=\"block1\", style=filled, fillcolor=orange, color=red];",
        // The reducible self-loop as a blue cluster with a bold header.
        "label=\"loop1\"; color=blue;",
        "block4 [label=\"block4\", penwidth=2];",
        // Divergent edges are red; back edges bold.
        "block1 -> block3 [label=\"F\", color=red, fontcolor=red];",
        "block1 -> block2 [label=\"T\", color=red, fontcolor=red, style=bold];",
        "block4 -> block4 [label=\"T\", style=bold, color=blue];",
        // The join point and the unreachable block.
        "block3 [label=\"block3\", shape=doubleoctagon];",
        "block6 [label=\"block6\", style=dashed, color=grey, fontcolor=grey];",
        "block6 -> block5 [style=dashed, color=grey];",
    ] {
        assert!(dot.contains(needle), "missing {needle:?} in\n{dot}");
    }
}
