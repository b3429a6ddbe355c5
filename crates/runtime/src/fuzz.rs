//! A random kernel generator for differential testing: valid OpenCL C with
//! nested divergent and uniform `if`s, loops with uniform and divergent trip
//! counts, `break`/`continue`, `switch` with fall-through, forward and
//! backward `goto` (irreducible loops included), early returns, barriers in
//! uniform positions (straight code, uniform loops with divergent bodies,
//! group-uniform conditions) with local memory, and atomics. Every kernel is free of
//! undefined behaviour (no division by zero, accesses in bounds, no races,
//! loops bounded), so any two correct engines agree on its output.

use std::fmt::Write as _;

/// A small deterministic generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// One generated test: the kernel's source and the launch it was made for.
#[derive(Clone, Debug)]
pub struct FuzzKernel {
    pub source: String,
    pub global: u64,
    pub local: u64,
    pub input: Vec<i32>,
}

struct Gen<'a> {
    rng: &'a mut Rng,
    out: String,
    labels: u32,
    counters: u32,
    loop_vars: Vec<String>,
    in_loop: bool,
    returns: bool,
}

impl Gen<'_> {
    fn expr(&mut self, depth: u32) -> String {
        let mut atoms: Vec<String> = vec![
            "a".into(),
            "b".into(),
            "acc".into(),
            "lid".into(),
            "grp".into(),
        ];
        atoms.extend(self.loop_vars.iter().cloned());
        if depth == 0 || self.rng.chance(30) {
            return if self.rng.chance(30) {
                format!("{}", self.rng.below(19) as i64 - 9)
            } else {
                atoms[self.rng.below(atoms.len() as u64) as usize].clone()
            };
        }
        let (x, y) = (self.expr(depth - 1), self.expr(depth - 1));
        match self.rng.below(9) {
            0 => format!("({x} + {y})"),
            1 => format!("({x} - {y})"),
            2 => format!("({x} * {y})"),
            3 => format!("({x} ^ {y})"),
            4 => format!("({x} & {y})"),
            5 => format!("(({x}) >> {})", self.rng.below(5)),
            6 => format!("min({x}, {y})"),
            7 => format!("max({x}, {y})"),
            _ => format!("(({x}) / ((({y}) & 7) + 1))"),
        }
    }

    fn cond(&mut self) -> String {
        match self.rng.below(6) {
            0 => "(grp & 1) == 0".into(),
            1 => format!("lid < {}", self.rng.below(12)),
            2 => format!("({} & 3) == {}", self.expr(1), self.rng.below(4)),
            _ => format!("{} > {}", self.expr(1), self.expr(1)),
        }
    }

    fn line(&mut self, indent: usize, text: &str) {
        let _ = writeln!(self.out, "{}{text}", "    ".repeat(indent));
    }

    fn block(&mut self, indent: usize, depth: u32) {
        let n = 1 + self.rng.below(3);
        for _ in 0..n {
            self.stmt(indent, depth);
        }
    }

    /// Work-items exchange `acc` through local memory between two barriers.
    fn exchange(&mut self, indent: usize, segment: u64) {
        let k = 1 + self.rng.below(7);
        self.line(indent, "tmp[lid] = acc;");
        self.line(indent, "barrier(CLK_LOCAL_MEM_FENCE);");
        self.line(
            indent,
            &format!(
                "acc += tmp[(lid + {k}) % get_local_size(0)] * {};",
                segment + 2
            ),
        );
        self.line(indent, "barrier(CLK_LOCAL_MEM_FENCE);");
    }

    fn stmt(&mut self, indent: usize, depth: u32) {
        let choice = if depth == 0 { 0 } else { self.rng.below(10) };
        match choice {
            0 | 1 => {
                let e = self.expr(2);
                self.line(indent, &format!("acc += {e};"));
            }
            2 => {
                let c = self.cond();
                self.line(indent, &format!("if ({c}) {{"));
                self.block(indent + 1, depth - 1);
                if self.rng.chance(50) {
                    self.line(indent, "} else {");
                    self.block(indent + 1, depth - 1);
                }
                self.line(indent, "}");
            }
            3 => {
                let v = format!("i{}", self.loop_vars.len());
                let bound = if self.rng.chance(50) {
                    format!("{}", 1 + self.rng.below(5))
                } else {
                    "(a & 7)".into()
                };
                self.line(
                    indent,
                    &format!("for (int {v} = 0; {v} < {bound}; {v}++) {{"),
                );
                self.loop_vars.push(v);
                let was = std::mem::replace(&mut self.in_loop, true);
                self.block(indent + 1, depth - 1);
                self.in_loop = was;
                self.loop_vars.pop();
                self.line(indent, "}");
            }
            4 if self.in_loop => {
                let c = self.cond();
                let what = if self.rng.chance(50) {
                    "break"
                } else {
                    "continue"
                };
                self.line(indent, &format!("if ({c}) {what};"));
            }
            5 => {
                let e = self.expr(1);
                self.line(indent, &format!("switch (({e}) & 3) {{"));
                for case in 0..3 {
                    self.line(indent, &format!("case {case}:"));
                    self.stmt(indent + 1, depth - 1);
                    if self.rng.chance(50) {
                        self.line(indent + 1, "break;");
                    }
                }
                self.line(indent, "default:");
                self.stmt(indent + 1, depth - 1);
                self.line(indent, "}");
            }
            6 => {
                // Forward goto.
                let l = self.labels;
                self.labels += 1;
                let c = self.cond();
                self.line(indent, &format!("if ({c}) goto L{l};"));
                self.block(indent, depth - 1);
                self.line(indent, &format!("L{l}: ;"));
            }
            7 => {
                // A loop made of gotos, entered at its top or (irreducibly) in its middle.
                let (top, mid, c) = (self.labels, self.labels + 1, self.counters);
                self.labels += 2;
                self.counters += 1;
                let bound = 1 + self.rng.below(4);
                let cond = self.cond();
                self.line(indent, &format!("c{c} = 0;"));
                self.line(indent, &format!("if ({cond}) goto L{mid};"));
                self.line(indent, &format!("L{top}:"));
                let e = self.expr(2);
                self.line(indent, &format!("acc += {e};"));
                self.line(indent, &format!("L{mid}:"));
                let e = self.expr(2);
                self.line(indent, &format!("acc ^= {e};"));
                self.line(indent, &format!("if (++c{c} < {bound}) goto L{top};"));
            }
            8 if self.returns => {
                let c = self.cond();
                self.line(indent, &format!("if ({c}) {{ out[gid] = acc; return; }}"));
            }
            _ => {
                let e = self.expr(1);
                self.line(indent, &format!("atomic_add(&counts[({e}) & 15], 1);"));
            }
        }
    }
}

/// Generates kernel number `seed`.
pub fn generate(seed: u64) -> FuzzKernel {
    let mut rng = Rng::new(seed);
    let barriers = rng.chance(40);
    let local = [8u64, 12, 16, 5][rng.below(4) as usize];
    let global = local * (2 + rng.below(3)) + if rng.chance(30) { rng.below(local) } else { 0 };
    let mut g = Gen {
        rng: &mut rng,
        out: String::new(),
        labels: 0,
        counters: 0,
        loop_vars: Vec::new(),
        in_loop: false,
        returns: !barriers,
    };
    let segments = 1 + g.rng.below(3);
    for s in 0..segments {
        g.block(1, 3);
        if barriers {
            // A uniform position: every work-item of the group gets here,
            // in straight code, in a loop with a uniform trip count (its
            // body may diverge before the barriers), or under a condition
            // on the group id.
            match g.rng.below(3) {
                0 => g.exchange(1, s),
                1 => {
                    let r = format!("r{s}");
                    let trips = 1 + g.rng.below(3);
                    g.line(1, &format!("for (int {r} = 0; {r} < {trips}; {r}++) {{"));
                    g.loop_vars.push(r);
                    g.block(2, 1);
                    g.exchange(2, s);
                    g.loop_vars.pop();
                    g.line(1, "}");
                }
                _ => {
                    g.line(1, "if ((grp & 1) == 0) {");
                    g.exchange(2, s);
                    g.line(1, "}");
                }
            }
        }
    }
    let counters = g.counters;
    let body = std::mem::take(&mut g.out);
    let mut source = String::new();
    let _ = writeln!(source, "kernel void fuzz(global const int *in, global int *out, global int *counts, local int *tmp) {{");
    let _ = writeln!(
        source,
        "    int gid = get_global_id(0), lid = get_local_id(0), grp = get_group_id(0);"
    );
    let _ = writeln!(
        source,
        "    int a = in[gid], b = in[(gid * 7 + 3) % get_global_size(0)], acc = 0;"
    );
    for c in 0..counters {
        let _ = writeln!(source, "    int c{c} = 0;");
    }
    source.push_str(&body);
    let _ = writeln!(source, "    out[gid] = acc ^ a ^ (b << 1);");
    let _ = writeln!(source, "}}");
    let input = (0..global).map(|_| rng.below(200) as i32 - 100).collect();
    FuzzKernel {
        source,
        global,
        local,
        input,
    }
}

/// Shrinks a generated kernel while `still_fails` holds for it: deletes
/// statements (a line, or a whole `{ … }` construct with its `else`),
/// unwraps blocks (keeps the body of an `if` or a loop without its head),
/// until no single step keeps the failure. The kernel's first lines (the
/// signature and the declarations) and its last store stay. Candidates
/// that do not compile or that have undefined behaviour must make
/// `still_fails` return false; the result is 1-minimal for these steps.
pub fn minimize(source: &str, mut still_fails: impl FnMut(&str) -> bool) -> String {
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    // The body the steps may touch: after the declarations, before the
    // final store and the closing brace.
    let first = lines
        .iter()
        .position(|l| !is_prologue(l))
        .unwrap_or(lines.len());
    loop {
        let mut progressed = false;
        let mut at = first;
        while at + 2 < lines.len() {
            let reduced = reductions(&lines, at)
                .into_iter()
                .find(|candidate| still_fails(&(candidate.join("\n") + "\n")));
            match reduced {
                // Try the same position again: a new line is there now.
                Some(candidate) => {
                    lines = candidate;
                    progressed = true;
                }
                None => at += 1,
            }
        }
        if !progressed {
            return lines.join("\n") + "\n";
        }
    }
}

/// The kernel's signature and first declarations, which the minimizer keeps.
fn is_prologue(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("kernel ") || t.starts_with("int gid") || t.starts_with("int a = ")
}

/// Net `{` minus `}` on a line.
fn brace_balance(line: &str) -> i32 {
    line.chars().fold(0, |n, c| match c {
        '{' => n + 1,
        '}' => n - 1,
        _ => n,
    })
}

/// The candidates of one step at line `at`, best (largest) first.
fn reductions(lines: &[String], at: usize) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let line = lines[at].trim_end();
    let opens = line.ends_with('{') && brace_balance(line) > 0;
    if opens {
        // The construct runs to the line that brings the depth back to 0.
        let mut depth = 0;
        let mut end = None;
        for (i, l) in lines.iter().enumerate().skip(at) {
            depth += brace_balance(l);
            if depth == 0 {
                end = Some(i);
                break;
            }
        }
        if let Some(end) = end {
            let mut removed = lines.to_vec();
            removed.drain(at..=end);
            out.push(removed);
            // Unwrap: keep the body of the head, or of its `else` part.
            let mut parts: Vec<Vec<String>> = vec![Vec::new()];
            let mut depth = 0;
            for l in &lines[at + 1..end] {
                if depth == 0 && l.trim_start().starts_with("} else {") {
                    parts.push(Vec::new());
                    continue;
                }
                depth += brace_balance(l);
                parts.last_mut().expect("one part").push(l.clone());
            }
            for body in parts {
                let mut unwrapped = lines[..at].to_vec();
                unwrapped.extend(body);
                unwrapped.extend_from_slice(&lines[end + 1..]);
                out.push(unwrapped);
            }
        }
    } else if brace_balance(line) == 0 && !line.trim().is_empty() {
        let mut removed = lines.to_vec();
        removed.remove(at);
        out.push(removed);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimize_keeps_only_what_the_failure_needs() {
        // A generated kernel with nested constructs around an atomic.
        let k = (1..200)
            .map(generate)
            .find(|k| k.source.matches('{').count() > 6 && k.source.contains("atomic_add"))
            .expect("a kernel with nested blocks and an atomic");
        let needle = k
            .source
            .lines()
            .find(|l| l.contains("atomic_add"))
            .unwrap()
            .trim()
            .to_string();
        let small = minimize(&k.source, |s| s.contains(&needle));
        // The prologue, the needle (its enclosing blocks unwrapped), the
        // final store.
        let body: Vec<&str> = small
            .lines()
            .filter(|l| !is_prologue(l))
            .map(str::trim)
            .collect();
        assert_eq!(
            body,
            [needle.as_str(), "out[gid] = acc ^ a ^ (b << 1);", "}"],
            "minimized:\n{small}"
        );
        assert_eq!(
            small.lines().filter(|l| is_prologue(l)).count(),
            k.source.lines().filter(|l| is_prologue(l)).count()
        );
    }

    #[test]
    fn minimize_returns_the_input_when_nothing_can_go() {
        let k = generate(3);
        let original = k.source.clone();
        let same = minimize(&k.source, |s| s == original);
        assert_eq!(same, original);
    }
}
