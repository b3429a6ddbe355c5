//! Lockstep analyses and transforms over Lockstep IR: CFG, dominance, loops, uniformity, liveness, and the passes that linearize divergent control flow.
