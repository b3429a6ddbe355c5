//! Dense directed graphs over `u32` node numbers, and the algorithms the
//! block-level analyses share: depth-first orders, Cooper–Harvey–Kennedy
//! dominators, dominance frontiers and strongly connected components.
//!
//! Why a separate graph: the dominator tree, the post-dominator tree (the
//! reversed CFG plus a virtual exit node), the per-branch join-point
//! computation (the CFG with split edges) and the loop forest all run the same
//! algorithms on slightly different graphs. Building those graphs over plain
//! node numbers (a block's index, plus a few virtual nodes past the last
//! block) lets one implementation serve them all.

/// "No node": the idom of a node unreachable from the root.
pub(crate) const NONE: u32 = u32::MAX;

/// A directed graph with nodes `0..len`; successor lists keep their order
/// (it decides the depth-first order and so the RPO).
#[derive(Clone, Debug, Default)]
pub(crate) struct Graph {
    pub succs: Vec<Vec<u32>>,
}

impl Graph {
    pub fn with_nodes(n: usize) -> Graph {
        Graph {
            succs: vec![Vec::new(); n],
        }
    }

    pub fn len(&self) -> usize {
        self.succs.len()
    }

    /// Adds a node with no edges and returns it.
    pub fn add_node(&mut self) -> u32 {
        self.succs.push(Vec::new());
        (self.succs.len() - 1) as u32
    }

    pub fn add_edge(&mut self, from: u32, to: u32) {
        self.succs[from as usize].push(to);
    }

    /// Predecessor lists (with repeats for parallel edges).
    pub fn preds(&self) -> Vec<Vec<u32>> {
        let mut preds = vec![Vec::new(); self.len()];
        for (u, succs) in self.succs.iter().enumerate() {
            for &v in succs {
                preds[v as usize].push(u as u32);
            }
        }
        preds
    }

    /// The nodes reachable from `root` in depth-first postorder, visiting
    /// successors in list order.
    pub fn postorder(&self, root: u32) -> Vec<u32> {
        let mut visited = vec![false; self.len()];
        let mut order = Vec::new();
        let mut stack: Vec<(u32, usize)> = vec![(root, 0)];
        visited[root as usize] = true;
        while let Some((node, next)) = stack.last_mut() {
            let succs = &self.succs[*node as usize];
            if *next < succs.len() {
                let s = succs[*next];
                *next += 1;
                if !visited[s as usize] {
                    visited[s as usize] = true;
                    stack.push((s, 0));
                }
            } else {
                order.push(*node);
                stack.pop();
            }
        }
        order
    }

    /// The nodes reachable from `root` in reverse postorder.
    pub fn rpo(&self, root: u32) -> Vec<u32> {
        let mut order = self.postorder(root);
        order.reverse();
        order
    }
}

/// Immediate dominators of the nodes reachable from `root`, by the
/// iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
/// Dominance Algorithm", 2001). `idom[root] == root`; nodes unreachable from
/// the root get [`NONE`]. Also returns the RPO the iteration used.
pub(crate) fn dominators(g: &Graph, root: u32) -> (Vec<u32>, Vec<u32>) {
    let rpo = g.rpo(root);
    let mut number = vec![NONE; g.len()];
    for (i, &n) in rpo.iter().enumerate() {
        number[n as usize] = i as u32;
    }
    let preds = g.preds();
    let mut idom = vec![NONE; g.len()];
    idom[root as usize] = root;
    let intersect = |idom: &[u32], mut a: u32, mut b: u32| {
        while a != b {
            while number[a as usize] > number[b as usize] {
                a = idom[a as usize];
            }
            while number[b as usize] > number[a as usize] {
                b = idom[b as usize];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &n in &rpo[1..] {
            let mut new_idom = NONE;
            for &p in &preds[n as usize] {
                if idom[p as usize] == NONE {
                    continue; // unreachable, or not processed yet
                }
                new_idom = if new_idom == NONE {
                    p
                } else {
                    intersect(&idom, p, new_idom)
                };
            }
            if idom[n as usize] != new_idom {
                idom[n as usize] = new_idom;
                changed = true;
            }
        }
    }
    (idom, rpo)
}

/// A dominator tree over node numbers, with depth-first numbers so that
/// "does `a` dominate `b`" is two comparisons.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tree {
    pub idom: Vec<u32>,
    pub children: Vec<Vec<u32>>,
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl Tree {
    /// Builds the tree from an idom array (as [`dominators`] returns it);
    /// children are listed in the order of `order` (an RPO).
    pub fn new(idom: Vec<u32>, root: u32, order: &[u32]) -> Tree {
        let n = idom.len();
        let mut children = vec![Vec::new(); n];
        for &node in order {
            let parent = idom[node as usize];
            if node != root && parent != NONE {
                children[parent as usize].push(node);
            }
        }
        let mut pre = vec![NONE; n];
        let mut post = vec![NONE; n];
        let (mut next_pre, mut next_post) = (0, 0);
        let mut stack = vec![(root, 0usize)];
        pre[root as usize] = next_pre;
        next_pre += 1;
        while let Some((node, next)) = stack.last_mut() {
            let kids = &children[*node as usize];
            if *next < kids.len() {
                let k = kids[*next];
                *next += 1;
                pre[k as usize] = next_pre;
                next_pre += 1;
                stack.push((k, 0));
            } else {
                post[*node as usize] = next_post;
                next_post += 1;
                stack.pop();
            }
        }
        Tree {
            idom,
            children,
            pre,
            post,
        }
    }

    pub fn contains(&self, n: u32) -> bool {
        self.pre[n as usize] != NONE
    }

    /// True if `a` dominates `b` (reflexive); false if either is outside the tree.
    pub fn dominates(&self, a: u32, b: u32) -> bool {
        self.contains(a)
            && self.contains(b)
            && self.pre[a as usize] <= self.pre[b as usize]
            && self.post[a as usize] >= self.post[b as usize]
    }
}

/// Dominance frontiers (Cooper–Harvey–Kennedy's formulation): `b` is in the
/// frontier of every node on the idom chain from each predecessor of a join
/// node `b` up to (excluding) `idom(b)`. Frontier lists are in the order of
/// `rpo`, without repeats.
pub(crate) fn frontiers(g: &Graph, idom: &[u32], rpo: &[u32]) -> Vec<Vec<u32>> {
    let preds = g.preds();
    let mut df: Vec<Vec<u32>> = vec![Vec::new(); g.len()];
    for &b in rpo {
        let reachable_preds: Vec<u32> = preds[b as usize]
            .iter()
            .copied()
            .filter(|&p| idom[p as usize] != NONE)
            .collect();
        if reachable_preds.len() < 2 {
            continue;
        }
        for p in reachable_preds {
            let mut runner = p;
            while runner != idom[b as usize] {
                let set = &mut df[runner as usize];
                if set.last() != Some(&b) {
                    set.push(b);
                }
                runner = idom[runner as usize];
            }
        }
    }
    df
}

/// The strongly connected components of the subgraph induced by `nodes`,
/// keeping only the edges `(u, v)` for which `keep(u, v)` holds (Tarjan's
/// algorithm, iterative). Components come in reverse topological order;
/// within a component, nodes are in the order Tarjan pops them.
pub(crate) fn sccs(g: &Graph, nodes: &[u32], keep: &dyn Fn(u32, u32) -> bool) -> Vec<Vec<u32>> {
    let n = g.len();
    let mut in_set = vec![false; n];
    for &v in nodes {
        in_set[v as usize] = true;
    }
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0u32;
    let mut call: Vec<(u32, usize)> = Vec::new();
    for &root in nodes {
        if index[root as usize] != NONE {
            continue;
        }
        index[root as usize] = next;
        low[root as usize] = next;
        next += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        call.push((root, 0));
        while let Some((v, i)) = call.last_mut() {
            let v = *v;
            let succs = &g.succs[v as usize];
            if *i < succs.len() {
                let w = succs[*i];
                *i += 1;
                if !in_set[w as usize] || !keep(v, w) {
                    continue;
                }
                if index[w as usize] == NONE {
                    index[w as usize] = next;
                    low[w as usize] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    call.push((w, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u as usize] = low[u as usize].min(low[v as usize]);
                }
                if low[v as usize] == index[v as usize] {
                    let mut comp = Vec::new();
                    loop {
                        let w = stack.pop().expect("Tarjan stack holds the component");
                        on_stack[w as usize] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    out.push(comp);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(u32, u32)]) -> Graph {
        let mut g = Graph::with_nodes(n);
        for &(a, b) in edges {
            g.add_edge(a, b);
        }
        g
    }

    #[test]
    fn diamond_dominators_and_frontiers() {
        let g = graph(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        let (idom, rpo) = dominators(&g, 0);
        assert_eq!(idom, vec![0, 0, 0, 0]);
        let df = frontiers(&g, &idom, &rpo);
        assert_eq!(df[1], vec![3]);
        assert_eq!(df[2], vec![3]);
        assert!(df[0].is_empty() && df[3].is_empty());
    }

    #[test]
    fn unreachable_nodes_have_no_idom() {
        let g = graph(3, &[(0, 1), (2, 1)]);
        let (idom, _) = dominators(&g, 0);
        assert_eq!(idom, vec![0, 0, NONE]);
    }

    #[test]
    fn tarjan_finds_nested_cycles() {
        let g = graph(5, &[(0, 1), (1, 2), (2, 1), (2, 3), (3, 3), (3, 4)]);
        let mut comps = sccs(&g, &[0, 1, 2, 3, 4], &|_, _| true);
        for c in &mut comps {
            c.sort();
        }
        comps.sort();
        assert_eq!(comps, vec![vec![0], vec![1, 2], vec![3], vec![4]]);
    }
}
