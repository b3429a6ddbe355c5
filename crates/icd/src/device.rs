//! Devices: the host CPU (the root device) and the sub-devices
//! `clCreateSubDevices` partitions it into, with their reference counts.
//!
//! A device is a set of compute units. The root's are numbered `0..cores`
//! (one per worker thread the runtime starts, `CL_DEVICE_MAX_COMPUTE_UNITS`),
//! NUMA node after NUMA node; a sub-device holds a consecutive range of its
//! parent's. A kernel enqueued on a sub-device's queue runs its work-groups
//! on at most as many worker threads as the sub-device has compute units
//! ([`Device::threads`]). The threads are not pinned to CPUs: the numbering
//! decides how many units a partition gets and where NUMA nodes begin and
//! end, not which CPUs the OS runs the threads on.
//!
//! The partition schemes (OpenCL 1.2), on a device of `N` compute units:
//!
//! * `CL_DEVICE_PARTITION_EQUALLY n`: `N / n` sub-devices of `n` units,
//!   the rest unused. `n` must be below `N`: one sub-device of all the
//!   units would not be a smaller device (`CL_DEVICE_PARTITION_FAILED`, as
//!   the CTS expects); `n` above `N` or below 1 is
//!   `CL_INVALID_DEVICE_PARTITION_COUNT`.
//! * `CL_DEVICE_PARTITION_BY_COUNTS m1 m2 ... LIST_END`: a sub-device of
//!   `m_i` units each, taken in order; at most `N` sub-devices and `N`
//!   units in all, none negative (else `CL_INVALID_DEVICE_PARTITION_COUNT`).
//! * `CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN`: `CL_DEVICE_AFFINITY_DOMAIN_NUMA`
//!   makes one sub-device per NUMA node the device spans. NUMA is the only
//!   domain Lockstep knows (not the cache levels), so
//!   `CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE` partitions by NUMA too,
//!   and the sub-devices report NUMA as their domain, as the spec asks. A
//!   device within one NUMA node (every device on a machine with one node)
//!   cannot be split this way: `CL_DEVICE_PARTITION_FAILED`, the spec's
//!   code for a supported scheme that cannot partition the device further.
//!   The cache domains are `CL_INVALID_VALUE` (valid, not supported).
//!
//! A device of one compute unit cannot be partitioned at all: it reports no
//! partition scheme, and every request is `CL_DEVICE_PARTITION_FAILED`.
//!
//! `clRetainDevice` and `clReleaseDevice` count references of sub-devices
//! and do nothing for the root device. A sub-device holds a reference to its
//! parent, and contexts and queues to their devices, so a released
//! sub-device stays usable by what was made for it.

#![allow(non_snake_case)]

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use crate::cl::*;
use crate::handle::{self, status, ClType, Kind, Object, Retained};

pub struct Device {
    /// The device this one was partitioned from; `None` for the root.
    parent: Option<Retained<Device>>,
    /// Its compute units, numbered as the root's.
    units: Range<u32>,
    /// `CL_DEVICE_PARTITION_TYPE`: the properties it was made with
    /// (zero-terminated), the domain used in place of
    /// `NEXT_PARTITIONABLE`; empty for the root device.
    partition_type: Vec<cl_device_partition_property>,
}

impl ClType for Device {
    const KIND: Kind = Kind::Device;
    const INVALID: cl_int = CL_INVALID_DEVICE;
}

/// The partition schemes a device of more than one compute unit supports,
/// in the order `CL_DEVICE_PARTITION_PROPERTIES` lists them.
const SCHEMES: [cl_uint; 3] = [
    CL_DEVICE_PARTITION_EQUALLY,
    CL_DEVICE_PARTITION_BY_COUNTS,
    CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
];

/// The affinity domains such a device can be partitioned by.
const AFFINITY_DOMAINS: cl_device_affinity_domain =
    CL_DEVICE_AFFINITY_DOMAIN_NUMA | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;

impl Device {
    /// Whether this is the root device (the one `clGetDeviceIDs` returns).
    pub fn is_root(&self) -> bool {
        self.parent.is_none()
    }

    /// `CL_DEVICE_MAX_COMPUTE_UNITS`.
    pub fn compute_units(&self) -> u32 {
        self.units.len() as u32
    }

    /// The parent device's handle, NULL for the root device.
    pub fn parent(&self) -> cl_device_id {
        self.parent
            .as_ref()
            .map_or(std::ptr::null_mut(), |p| handle::handle(p))
    }

    /// `CL_DEVICE_PARTITION_TYPE`.
    pub fn partition_type(&self) -> &[cl_device_partition_property] {
        &self.partition_type
    }

    fn partitionable(&self) -> bool {
        self.units.len() >= 2
    }

    /// `CL_DEVICE_PARTITION_PROPERTIES`: the schemes, or a single 0 when
    /// none gives two sub-devices.
    pub fn partition_properties(&self) -> Vec<cl_device_partition_property> {
        if self.partitionable() {
            SCHEMES
                .iter()
                .map(|&s| s as cl_device_partition_property)
                .collect()
        } else {
            vec![0]
        }
    }

    /// `CL_DEVICE_PARTITION_AFFINITY_DOMAIN`.
    pub fn affinity_domains(&self) -> cl_device_affinity_domain {
        if self.partitionable() {
            AFFINITY_DOMAINS
        } else {
            0
        }
    }

    /// `CL_DEVICE_PARTITION_MAX_SUB_DEVICES`: one per compute unit (by
    /// counts or equally by one), none when it cannot be partitioned.
    pub fn max_sub_devices(&self) -> u32 {
        if self.partitionable() {
            self.compute_units()
        } else {
            0
        }
    }

    /// The worker threads a launch on this device uses, when the runtime
    /// would use `threads`: the root device as many as the runtime says
    /// (one per core, or `LOCKSTEP_THREADS`), a sub-device at most its
    /// compute units.
    pub fn threads(&self, threads: usize) -> usize {
        if self.is_root() {
            threads
        } else {
            threads.min(self.units.len()).max(1)
        }
    }

    /// `CL_DEVICE_REFERENCE_COUNT`: always 1 for the root device.
    pub fn reference_count(object: &Object<Device>) -> cl_uint {
        if object.is_root() {
            1
        } else {
            object.ref_count()
        }
    }
}

/// The root device (lives for the whole process).
pub fn root() -> &'static Arc<Object<Device>> {
    static ROOT: OnceLock<Arc<Object<Device>>> = OnceLock::new();
    ROOT.get_or_init(|| {
        let cores = crate::platform::runtime().device().cores.max(1) as u32;
        handle::create(Device {
            parent: None,
            units: 0..cores,
            partition_type: Vec::new(),
        })
    })
}

pub fn root_handle() -> cl_device_id {
    handle::handle(root())
}

/// The device behind a handle: the root device or a live sub-device.
pub fn get(d: cl_device_id) -> Result<Arc<Object<Device>>, cl_int> {
    handle::get::<Device>(d)
}

/// The root's compute units, node by node: the ranges of the NUMA nodes.
fn numa_nodes() -> &'static [Range<u32>] {
    static NODES: OnceLock<Vec<Range<u32>>> = OnceLock::new();
    NODES.get_or_init(|| {
        let cores = root().compute_units();
        node_ranges(&numa_node_sizes(cores), cores)
    })
}

/// Consecutive ranges of `sizes` units; one range of all `cores` units
/// when the sizes do not add up to them.
fn node_ranges(sizes: &[u32], cores: u32) -> Vec<Range<u32>> {
    if sizes.iter().sum::<u32>() != cores || sizes.contains(&0) {
        #[allow(clippy::single_range_in_vec_init)]
        return vec![0..cores];
    }
    let mut start = 0;
    sizes
        .iter()
        .map(|&n| {
            start += n;
            start - n..start
        })
        .collect()
}

/// How many of the CPUs this process may run on each NUMA node holds
/// (`/sys/devices/system/node/node*/cpulist` against the affinity mask),
/// nodes without such CPUs left out. A single node of all `cores` when
/// sysfs says nothing, or when a CPU quota makes the compute units fewer
/// than the CPUs allowed (the units then have no place on the nodes).
fn numa_node_sizes(cores: u32) -> Vec<u32> {
    let whole = vec![cores];
    let Ok(entries) = std::fs::read_dir("/sys/devices/system/node") else {
        return whole;
    };
    let mut nodes: Vec<(u32, Vec<u32>)> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let index = name.strip_prefix("node")?.parse::<u32>().ok()?;
            let list = std::fs::read_to_string(e.path().join("cpulist")).ok()?;
            Some((index, parse_cpu_list(list.trim())?))
        })
        .collect();
    nodes.sort_by_key(|(index, _)| *index);
    let allowed = allowed_cpus();
    let sizes: Vec<u32> = nodes
        .iter()
        .map(|(_, cpus)| cpus.iter().filter(|c| allowed(**c)).count() as u32)
        .filter(|&n| n > 0)
        .collect();
    if sizes.iter().sum::<u32>() == cores {
        sizes
    } else {
        whole
    }
}

/// Whether this process may run on a CPU (its affinity mask); every CPU
/// when the mask cannot be read.
fn allowed_cpus() -> impl Fn(u32) -> bool {
    // SAFETY: a zeroed cpu_set_t is a valid empty set for the kernel to fill.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `set` is a valid cpu_set_t of the size given.
    let known =
        unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) }
            == 0;
    move |cpu| {
        // SAFETY: CPU_ISSET reads the set; CPUs beyond it are not in it.
        !known || (cpu < libc::CPU_SETSIZE as u32 && unsafe { libc::CPU_ISSET(cpu as usize, &set) })
    }
}

/// A sysfs CPU list (`0-3,8,10-11`).
fn parse_cpu_list(list: &str) -> Option<Vec<u32>> {
    let mut cpus = Vec::new();
    if list.is_empty() {
        return Some(cpus);
    }
    for part in list.split(',') {
        match part.split_once('-') {
            Some((a, b)) => cpus.extend(a.trim().parse::<u32>().ok()?..=b.trim().parse().ok()?),
            None => cpus.push(part.trim().parse().ok()?),
        }
    }
    Some(cpus)
}

/// A partition request, as read from `clCreateSubDevices`' properties.
#[derive(Clone, Debug, PartialEq)]
enum Request {
    Equally(isize),
    ByCounts(Vec<isize>),
    ByAffinity(cl_device_affinity_domain),
}

/// Reads a property list: one scheme and its value(s), then 0. A list of
/// counts is read up to its `LIST_END` (which is 0, so the list's final 0
/// is not read), and no further than `max_counts + 1` counts: more is a
/// count error whatever follows. `CL_INVALID_VALUE` for anything else.
///
/// # Safety
/// `properties` must be NULL or a list as the spec describes.
unsafe fn read_request(
    properties: *const cl_device_partition_property,
    max_counts: usize,
) -> Result<Request, cl_int> {
    if properties.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    let name = *properties;
    let is = |scheme: cl_uint| name == scheme as cl_device_partition_property;
    if is(CL_DEVICE_PARTITION_BY_COUNTS) {
        let mut counts = Vec::new();
        let mut p = properties.add(1);
        while *p != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END as cl_device_partition_property {
            counts.push(*p);
            if counts.len() > max_counts {
                return Err(CL_INVALID_DEVICE_PARTITION_COUNT);
            }
            p = p.add(1);
        }
        return Ok(Request::ByCounts(counts));
    }
    let request = if is(CL_DEVICE_PARTITION_EQUALLY) {
        Request::Equally(*properties.add(1))
    } else if is(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN) {
        let domain = *properties.add(1) as cl_device_affinity_domain;
        let known = CL_DEVICE_AFFINITY_DOMAIN_NUMA
            | CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE
            | CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE
            | CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE
            | CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE
            | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
        if domain.count_ones() != 1 || domain & !known != 0 {
            return Err(CL_INVALID_VALUE);
        }
        Request::ByAffinity(domain)
    } else {
        return Err(CL_INVALID_VALUE);
    };
    // One scheme per list.
    if *properties.add(2) != 0 {
        return Err(CL_INVALID_VALUE);
    }
    Ok(request)
}

/// A sub-device to make: its units and its `CL_DEVICE_PARTITION_TYPE`.
type Part = (Range<u32>, Vec<cl_device_partition_property>);

/// The sub-devices `request` splits the units `units` into, given the
/// root's NUMA nodes; the spec's error otherwise (see the module's doc).
fn plan(units: Range<u32>, numa: &[Range<u32>], request: &Request) -> Result<Vec<Part>, cl_int> {
    let n = units.len() as isize;
    // Consecutive ranges of the given sizes from the start of `units`.
    let consecutive = |sizes: &[u32], partition_type: Vec<cl_device_partition_property>| {
        let mut start = units.start;
        sizes
            .iter()
            .map(|&size| {
                start += size;
                (start - size..start, partition_type.clone())
            })
            .collect::<Vec<Part>>()
    };
    match request {
        Request::Equally(m) => {
            if *m < 1 || *m > n {
                return Err(CL_INVALID_DEVICE_PARTITION_COUNT);
            }
            if *m == n {
                return Err(CL_DEVICE_PARTITION_FAILED);
            }
            let equally = CL_DEVICE_PARTITION_EQUALLY as cl_device_partition_property;
            let sizes = vec![*m as u32; (n / m) as usize];
            Ok(consecutive(&sizes, vec![equally, *m, 0]))
        }
        Request::ByCounts(counts) => {
            if counts.is_empty()
                || counts.len() as isize > n
                || counts.iter().any(|&c| c < 0)
                || counts.iter().sum::<isize>() > n
            {
                return Err(CL_INVALID_DEVICE_PARTITION_COUNT);
            }
            if n < 2 {
                return Err(CL_DEVICE_PARTITION_FAILED);
            }
            let by_counts = CL_DEVICE_PARTITION_BY_COUNTS as cl_device_partition_property;
            let list_end = CL_DEVICE_PARTITION_BY_COUNTS_LIST_END as cl_device_partition_property;
            let mut partition_type = vec![by_counts];
            partition_type.extend(counts);
            partition_type.extend([list_end, 0]);
            let sizes: Vec<u32> = counts.iter().map(|&c| c as u32).collect();
            Ok(consecutive(&sizes, partition_type))
        }
        Request::ByAffinity(domain) => {
            if domain & AFFINITY_DOMAINS == 0 {
                // A cache level: valid, but not a domain Lockstep knows.
                return Err(CL_INVALID_VALUE);
            }
            let parts: Vec<Range<u32>> = numa
                .iter()
                .map(|node| node.start.max(units.start)..node.end.min(units.end))
                .filter(|r| !r.is_empty())
                .collect();
            if parts.len() < 2 {
                return Err(CL_DEVICE_PARTITION_FAILED);
            }
            let partition_type = vec![
                CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN as cl_device_partition_property,
                CL_DEVICE_AFFINITY_DOMAIN_NUMA as cl_device_partition_property,
                0,
            ];
            Ok(parts
                .into_iter()
                .map(|r| (r, partition_type.clone()))
                .collect())
        }
    }
}

pub unsafe extern "C" fn clCreateSubDevices(
    in_device: cl_device_id,
    properties: *const cl_device_partition_property,
    num_devices: cl_uint,
    out_devices: *mut cl_device_id,
    num_devices_ret: *mut cl_uint,
) -> cl_int {
    status(|| {
        let parent = get(in_device)?;
        let request = read_request(properties, parent.units.len())?;
        let parts = plan(parent.units.clone(), numa_nodes(), &request)?;
        if !out_devices.is_null() {
            if (num_devices as usize) < parts.len() {
                return Err(CL_INVALID_VALUE);
            }
            for (i, (units, partition_type)) in parts.iter().enumerate() {
                let sub = handle::create(Device {
                    parent: Some(Retained::new(&parent)),
                    units: units.clone(),
                    partition_type: partition_type.clone(),
                });
                *out_devices.add(i) = handle::handle(&sub);
            }
        }
        if !num_devices_ret.is_null() {
            *num_devices_ret = parts.len() as cl_uint;
        }
        Ok(())
    })
}

pub unsafe extern "C" fn clRetainDevice(device: cl_device_id) -> cl_int {
    status(|| {
        let d = get(device)?;
        if !d.is_root() {
            d.retain();
        }
        Ok(())
    })
}

pub unsafe extern "C" fn clReleaseDevice(device: cl_device_id) -> cl_int {
    status(|| {
        let d = get(device)?;
        if !d.is_root() {
            d.release();
        }
        Ok(())
    })
}

#[cfg(test)]
// Lists of one range are lists of one NUMA node.
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;

    const EQUALLY: isize = CL_DEVICE_PARTITION_EQUALLY as isize;
    const BY_COUNTS: isize = CL_DEVICE_PARTITION_BY_COUNTS as isize;
    const BY_AFFINITY: isize = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN as isize;
    const NUMA: isize = CL_DEVICE_AFFINITY_DOMAIN_NUMA as isize;
    const NEXT: isize = CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE as isize;

    fn request(list: &[isize]) -> Result<Request, cl_int> {
        // SAFETY: `list` is a property list the tests end with zeros.
        unsafe { read_request(list.as_ptr(), 8) }
    }

    fn sizes(parts: &[Part]) -> Vec<Range<u32>> {
        parts.iter().map(|(r, _)| r.clone()).collect()
    }

    #[test]
    fn property_lists_are_read_up_to_their_end_and_malformed_ones_rejected() {
        assert_eq!(request(&[EQUALLY, 2, 0]), Ok(Request::Equally(2)));
        assert_eq!(
            request(&[BY_COUNTS, 3, 1, 0, 0]),
            Ok(Request::ByCounts(vec![3, 1]))
        );
        assert_eq!(
            request(&[BY_AFFINITY, NUMA, 0]),
            Ok(Request::ByAffinity(NUMA as u64))
        );
        // SAFETY: NULL is accepted.
        assert_eq!(
            unsafe { read_request(std::ptr::null(), 8) },
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(request(&[-1, 1, 0]), Err(CL_INVALID_VALUE));
        assert_eq!(request(&[0]), Err(CL_INVALID_VALUE));
        // Two schemes, two domains, an unknown domain.
        assert_eq!(
            request(&[EQUALLY, 1, BY_COUNTS, 1, 0, 0]),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(
            request(&[BY_AFFINITY, NUMA | NEXT, 0]),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(request(&[BY_AFFINITY, 1 << 9, 0]), Err(CL_INVALID_VALUE));
        // More counts than a device of 8 units can take: stops reading.
        let many = [BY_COUNTS, 1, 1, 1, 1, 1, 1, 1, 1, 1];
        assert_eq!(request(&many), Err(CL_INVALID_DEVICE_PARTITION_COUNT));
    }

    #[test]
    fn equally_and_by_counts_take_consecutive_units() {
        let one_node = [0..8];
        let parts = plan(0..8, &one_node, &Request::Equally(3)).unwrap();
        assert_eq!(sizes(&parts), [0..3, 3..6]);
        assert_eq!(parts[0].1, [EQUALLY, 3, 0]);
        let parts = plan(2..6, &one_node, &Request::ByCounts(vec![1, 3])).unwrap();
        assert_eq!(sizes(&parts), [2..3, 3..6]);
        assert_eq!(parts[1].1, [BY_COUNTS, 1, 3, 0, 0]);
        // All units in one sub-device by counts is allowed.
        assert_eq!(
            sizes(&plan(0..2, &one_node, &Request::ByCounts(vec![2])).unwrap()),
            [0..2]
        );
    }

    #[test]
    fn partitions_give_the_spec_error_codes() {
        let one_node = [0..4];
        let plan4 = |r: Request| plan(0..4, &one_node, &r).map(|p| p.len());
        assert_eq!(plan4(Request::Equally(4)), Err(CL_DEVICE_PARTITION_FAILED));
        assert_eq!(
            plan4(Request::Equally(5)),
            Err(CL_INVALID_DEVICE_PARTITION_COUNT)
        );
        assert_eq!(
            plan4(Request::Equally(0)),
            Err(CL_INVALID_DEVICE_PARTITION_COUNT)
        );
        assert_eq!(
            plan4(Request::ByCounts(vec![])),
            Err(CL_INVALID_DEVICE_PARTITION_COUNT)
        );
        assert_eq!(
            plan4(Request::ByCounts(vec![2, 3])),
            Err(CL_INVALID_DEVICE_PARTITION_COUNT)
        );
        assert_eq!(
            plan4(Request::ByCounts(vec![-1])),
            Err(CL_INVALID_DEVICE_PARTITION_COUNT)
        );
        assert_eq!(
            plan4(Request::ByCounts(vec![1; 5])),
            Err(CL_INVALID_DEVICE_PARTITION_COUNT)
        );
        assert_eq!(
            plan4(Request::ByAffinity(CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE)),
            Err(CL_INVALID_VALUE)
        );
        // One compute unit: nothing to split.
        let plan1 = |r: Request| plan(3..4, &one_node, &r).map(|p| p.len());
        assert_eq!(plan1(Request::Equally(1)), Err(CL_DEVICE_PARTITION_FAILED));
        assert_eq!(
            plan1(Request::ByCounts(vec![1])),
            Err(CL_DEVICE_PARTITION_FAILED)
        );
    }

    #[test]
    fn numa_partitions_split_at_node_boundaries_and_need_two_nodes() {
        let numa = CL_DEVICE_AFFINITY_DOMAIN_NUMA;
        let next = CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
        // One node: no partition.
        assert_eq!(
            plan(0..4, &[0..4], &Request::ByAffinity(numa)).map(|p| p.len()),
            Err(CL_DEVICE_PARTITION_FAILED)
        );
        assert_eq!(
            plan(0..4, &[0..4], &Request::ByAffinity(next)).map(|p| p.len()),
            Err(CL_DEVICE_PARTITION_FAILED)
        );
        // Two nodes of 4: the root splits at 4; a sub-device of units 2..6
        // into 2..4 and 4..6; one within a node does not split.
        let nodes = node_ranges(&[4, 4], 8);
        assert_eq!(nodes, [0..4, 4..8]);
        let parts = plan(0..8, &nodes, &Request::ByAffinity(next)).unwrap();
        assert_eq!(sizes(&parts), [0..4, 4..8]);
        assert_eq!(parts[0].1, [BY_AFFINITY, NUMA, 0], "NUMA, not NEXT");
        let parts = plan(2..6, &nodes, &Request::ByAffinity(numa)).unwrap();
        assert_eq!(sizes(&parts), [2..4, 4..6]);
        assert_eq!(
            plan(4..8, &nodes, &Request::ByAffinity(numa)).map(|p| p.len()),
            Err(CL_DEVICE_PARTITION_FAILED)
        );
        // Sizes that do not match the units: one node.
        assert_eq!(node_ranges(&[4, 4], 6), [0..6]);
    }

    #[test]
    fn cpu_lists_parse() {
        assert_eq!(
            parse_cpu_list("0-3,8,10-11"),
            Some(vec![0, 1, 2, 3, 8, 10, 11])
        );
        assert_eq!(parse_cpu_list(""), Some(vec![]));
        assert_eq!(parse_cpu_list("x"), None);
    }

    #[test]
    fn a_sub_device_queue_launches_on_at_most_its_compute_units() {
        let root = root_handle();
        if super::root().compute_units() < 2 {
            return; // Nothing to partition on one core.
        }
        let mut err = 0;
        let mut subs = [std::ptr::null_mut(); 2];
        let by_counts = [BY_COUNTS, 1, 1, 0, 0];
        // SAFETY: valid arguments for these entry points.
        unsafe {
            assert_eq!(
                clCreateSubDevices(root, by_counts.as_ptr(), 2, subs.as_mut_ptr(), &mut 0),
                CL_SUCCESS
            );
            let devices = [subs[0], root];
            let ctx = crate::context::clCreateContext(
                std::ptr::null(),
                2,
                devices.as_ptr(),
                None,
                std::ptr::null_mut(),
                &mut err,
            );
            assert_eq!(err, CL_SUCCESS);
            let on_sub = crate::queue::clCreateCommandQueueWithProperties(
                ctx,
                subs[0],
                std::ptr::null(),
                &mut err,
            );
            assert_eq!(err, CL_SUCCESS);
            let on_root = crate::queue::clCreateCommandQueueWithProperties(
                ctx,
                root,
                std::ptr::null(),
                &mut err,
            );
            assert_eq!(err, CL_SUCCESS);
            // Not in the context.
            crate::queue::clCreateCommandQueueWithProperties(
                ctx,
                subs[1],
                std::ptr::null(),
                &mut err,
            );
            assert_eq!(err, CL_INVALID_DEVICE);
            let runtime = crate::platform::runtime().threads();
            assert_eq!(crate::queue::get(on_sub).unwrap().runtime().threads(), 1);
            assert_eq!(
                crate::queue::get(on_root).unwrap().runtime().threads(),
                runtime
            );
            // The context keeps a released sub-device alive.
            assert_eq!(clReleaseDevice(subs[0]), CL_SUCCESS);
            assert!(get(subs[0]).is_ok());
            crate::queue::clReleaseCommandQueue(on_sub);
            crate::queue::clReleaseCommandQueue(on_root);
            crate::context::clReleaseContext(ctx);
            assert_eq!(get(subs[0]).err(), Some(CL_INVALID_DEVICE));
            assert_eq!(clReleaseDevice(subs[1]), CL_SUCCESS);
            assert_eq!(clReleaseDevice(subs[1]), CL_INVALID_DEVICE);
            // The root device is not counted.
            assert_eq!(clReleaseDevice(root), CL_SUCCESS);
            assert_eq!(Device::reference_count(super::root()), 1);
        }
    }
}
