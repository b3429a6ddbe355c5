//! `lockstep info`: prints the device the runtime sees (the facts come from
//! `lockstep_runtime::Device`) and where clang is.

use anyhow::Result;

pub fn run() -> Result<()> {
    let ctx = lockstep_llvm::context();
    let d = ctx.device();
    println!("device:             {}", d.cpu_model);
    println!("cores:              {}", d.cores);
    match &d.target_error {
        Some(e) => println!("target CPU:         none: {e}"),
        None if d.target_from_env => println!(
            "target CPU:         {} (from {}; code for it runs on this CPU)",
            d.target_cpu,
            lockstep_codegen::backend::target::CPU_ENV
        ),
        None => println!("target CPU:         {} (the host)", d.target_cpu),
    }
    let features: Vec<String> = d
        .features
        .list()
        .iter()
        .map(|(name, on)| format!("{}{name}", if *on { "+" } else { "-" }))
        .collect();
    println!("SIMD features:      {}", features.join(" "));
    println!("SIMD width:         {} lanes of 32 bits", d.simd_width);
    println!("max work-group:     {} work-items", d.max_work_group_size);
    println!(
        "local memory:       {} KiB per work-group",
        d.local_mem_size / 1024
    );
    let engines: Vec<String> = d
        .engines
        .iter()
        .map(|e| format!("{} ({e})", e.name()))
        .collect();
    println!("engines:            {}", engines.join(", "));
    match lockstep_frontend::find_clang() {
        Ok(path) => println!("clang:              {}", path.display()),
        Err(e) => println!("clang:              not found: {e}"),
    }
    Ok(())
}
