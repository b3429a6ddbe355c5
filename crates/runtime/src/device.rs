//! The device: the host CPU as Lockstep sees it — model, cores, the SIMD
//! features detected at run time, and the SIMD width kernels run at.
//!
//! The SIMD engine picks its vector width from here, the OpenCL ICD answers
//! `clGetDeviceInfo` from here, and `lockstep info` prints it, so all three
//! agree. A [`crate::Context`] describes its device once, asking its
//! toolchain which CPU kernels are compiled for.
//!
//! With `LOCKSTEP_CPU=NAME` the LLVM toolchain compiles for that CPU (LLVM's
//! name, same architecture): the features and the width are then that CPU's,
//! as the code generator sees them, not the host's.

use crate::{Engine, Target, MAX_LOCAL_MEM_SIZE, MAX_WORK_GROUP_SIZE};

/// The x86 SIMD features that decide how Lockstep vectorizes, detected at
/// run time (all false on other architectures).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SimdFeatures {
    pub sse4_2: bool,
    pub avx: bool,
    pub avx2: bool,
    pub fma: bool,
    pub avx512f: bool,
    pub avx512bw: bool,
    pub avx512vl: bool,
    pub avx512dq: bool,
}

impl SimdFeatures {
    /// The features of the CPU this process runs on.
    pub fn detect() -> SimdFeatures {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        {
            SimdFeatures {
                sse4_2: is_x86_feature_detected!("sse4.2"),
                avx: is_x86_feature_detected!("avx"),
                avx2: is_x86_feature_detected!("avx2"),
                fma: is_x86_feature_detected!("fma"),
                avx512f: is_x86_feature_detected!("avx512f"),
                avx512bw: is_x86_feature_detected!("avx512bw"),
                avx512vl: is_x86_feature_detected!("avx512vl"),
                avx512dq: is_x86_feature_detected!("avx512dq"),
            }
        }
        #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
        {
            SimdFeatures::default()
        }
    }

    /// Every feature by its usual name (as LLVM and `/proc/cpuinfo` spell
    /// it, with `sse4.2`), and whether the CPU has it.
    pub fn list(&self) -> [(&'static str, bool); 8] {
        [
            ("sse4.2", self.sse4_2),
            ("avx", self.avx),
            ("avx2", self.avx2),
            ("fma", self.fma),
            ("avx512f", self.avx512f),
            ("avx512bw", self.avx512bw),
            ("avx512vl", self.avx512vl),
            ("avx512dq", self.avx512dq),
        ]
    }

    /// The features of a CPU described by LLVM feature names (`has` answers
    /// for `avx2`, `sse4.2`, …).
    pub fn from_llvm(has: impl Fn(&str) -> bool) -> SimdFeatures {
        SimdFeatures {
            sse4_2: has("sse4.2"),
            avx: has("avx"),
            avx2: has("avx2"),
            fma: has("fma"),
            avx512f: has("avx512f"),
            avx512bw: has("avx512bw"),
            avx512vl: has("avx512vl"),
            avx512dq: has("avx512dq"),
        }
    }

    /// How many 32-bit lanes one vector register holds: 16 with AVX-512,
    /// 8 with AVX2, otherwise 4 (SSE, or NEON-sized vectors elsewhere).
    pub fn width_32(&self) -> u32 {
        if self.avx512f {
            16
        } else if self.avx2 {
            8
        } else {
            4
        }
    }
}

/// The device kernels run on: the host CPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device {
    /// The CPU model (`model name` in `/proc/cpuinfo`), or the architecture
    /// when the model cannot be read.
    pub cpu_model: String,
    /// Cores (hardware threads) this process may use: the worker count.
    pub cores: usize,
    /// The toolchain's name of the CPU kernels are compiled for: the host's, or the
    /// one `LOCKSTEP_CPU` names (`target_from_env`). Empty when there is
    /// none (`target_error`).
    pub target_cpu: String,
    /// Whether `LOCKSTEP_CPU` chose `target_cpu`.
    pub target_from_env: bool,
    /// Why no kernel can be compiled (an unknown `LOCKSTEP_CPU`, or one
    /// this machine cannot run), if so.
    pub target_error: Option<String>,
    /// The SIMD features of `target_cpu` (the host's when detection fails).
    pub features: SimdFeatures,
    /// Work-items per SIMD gang for 32-bit lanes.
    pub simd_width: u32,
    pub max_work_group_size: u64,
    /// `__local` memory per work-group, in bytes.
    pub local_mem_size: u64,
    /// The engines this build can run kernels on.
    pub engines: Vec<Engine>,
}

impl Device {
    /// The host CPU, running code compiled for `target` (the toolchain's
    /// answer: the CPU, or why kernels cannot be compiled).
    pub(crate) fn new(target: Result<Target, String>) -> Device {
        let features = match &target {
            Ok(t) if t.chosen => t.features,
            _ => SimdFeatures::detect(),
        };
        Device {
            cpu_model: cpu_model().unwrap_or_else(|| std::env::consts::ARCH.to_string()),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            target_cpu: target.as_ref().map_or(String::new(), |t| t.cpu.clone()),
            target_from_env: target.as_ref().is_ok_and(|t| t.chosen),
            features,
            simd_width: features.width_32(),
            target_error: target.err(),
            max_work_group_size: MAX_WORK_GROUP_SIZE,
            local_mem_size: MAX_LOCAL_MEM_SIZE,
            engines: Engine::AVAILABLE.to_vec(),
        }
    }
}

/// The first `model name` (x86) or `Model`/`Hardware` (Arm) line of
/// `/proc/cpuinfo`.
fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    ["model name", "Model", "Hardware"].iter().find_map(|key| {
        text.lines().find_map(|line| {
            let (k, v) = line.split_once(':')?;
            (k.trim() == *key && !v.trim().is_empty()).then(|| v.trim().to_string())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_has_cores_and_a_known_width() {
        let d = Device::new(Err("no toolchain".to_string()));
        assert!(d.cores >= 1);
        assert!([4, 8, 16].contains(&d.simd_width), "{}", d.simd_width);
        assert!(!d.cpu_model.is_empty());
        assert_eq!(d.max_work_group_size, MAX_WORK_GROUP_SIZE);
        assert!(d.engines.contains(&Engine::Interpreter));
        assert_eq!(d.target_error.as_deref(), Some("no toolchain"));
    }

    #[test]
    fn a_chosen_target_decides_features_and_width() {
        let avx2 = SimdFeatures {
            avx: true,
            avx2: true,
            ..SimdFeatures::default()
        };
        let chosen = |chosen| {
            Device::new(Ok(Target {
                cpu: "haswell".to_string(),
                chosen,
                features: avx2,
            }))
        };
        let d = chosen(true);
        assert_eq!(
            (d.target_cpu.as_str(), d.target_from_env),
            ("haswell", true)
        );
        assert_eq!((d.features, d.simd_width), (avx2, 8));
        assert_eq!(d.target_error, None);
        // The host's own CPU: its features as detected at run time.
        assert_eq!(chosen(false).features, SimdFeatures::detect());
    }

    #[test]
    fn width_follows_the_widest_feature() {
        let none = SimdFeatures::default();
        assert_eq!(none.width_32(), 4);
        let avx2 = SimdFeatures { avx2: true, ..none };
        assert_eq!(avx2.width_32(), 8);
        let avx512 = SimdFeatures {
            avx512f: true,
            ..avx2
        };
        assert_eq!(avx512.width_32(), 16);
        let llvm = SimdFeatures::from_llvm(|f| ["sse4.2", "avx", "avx2", "fma"].contains(&f));
        assert_eq!(llvm.width_32(), 8);
        assert!(llvm.fma && !llvm.avx512f);
    }
}
