//! Images and samplers: creation, queries, and the commands on images
//! (read, write, copy, fill, map, copies to and from buffers).
//!
//! An image is a [`Mem`] whose storage is a `lockstep_runtime::Image`'s
//! descriptor, the texels after it (the runtime's `image` module).
//! `CL_MEM_USE_HOST_PTR` images copy the application's texels in at
//! creation; mapping one copies the image out to the application's memory
//! and returns a pointer into it, and unmapping copies it back (the spec
//! leaves the memory's contents undefined at other times). A 1D buffer
//! image and a 2D image from a buffer (`cl_khr_image2d_from_buffer`) have
//! their texels in the buffer's storage and share them: what a kernel or
//! command writes through one, the other shows; mapping the image returns a
//! pointer into the buffer. Such an image keeps its buffer alive.

#![allow(non_snake_case)]

use std::ffi::c_void;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};

use lockstep_runtime::image::{ImageError, ImageType};
use lockstep_runtime::{AddressingMode, FilterMode, Image, ImageDesc, ImageFormat, Sampler};

use crate::cl::*;
use crate::context::Context;
use crate::handle::{self, creator, status, ClType, Kind, Object, Retained, SendPtr};
use crate::info::Info;
use crate::memory::{self, Mem};
use crate::queue::{enqueue, wait_list, Enqueue};

/// What a [`Mem`] that is an image holds besides its storage.
pub struct ImageMem {
    pub image: Image,
    /// The buffer of a 1D buffer image or a 2D image from a buffer, whose
    /// memory holds the texels.
    pub buffer: Option<Retained<Mem>>,
    /// The layout of the application's memory (`CL_MEM_USE_HOST_PTR`).
    pub host_row_pitch: usize,
    pub host_slice_pitch: usize,
}

fn image_error(e: ImageError) -> cl_int {
    match e {
        ImageError::InvalidFormat => CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        ImageError::UnsupportedFormat => CL_IMAGE_FORMAT_NOT_SUPPORTED,
        ImageError::InvalidSize => CL_INVALID_IMAGE_SIZE,
        ImageError::Alloc(_) => CL_MEM_OBJECT_ALLOCATION_FAILURE,
    }
}

unsafe fn create_image(
    context: cl_context,
    properties: Vec<cl_mem_properties>,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    let context = crate::context::get(context)?;
    memory::check_flags(flags)?;
    if format.is_null() {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    let format = *format;
    let format = ImageFormat::new(format.image_channel_order, format.image_channel_data_type);
    if !format.is_valid() {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    if desc.is_null() {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let d = *desc;
    let ty = ImageType::from_cl(d.image_type).ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
    if d.num_mip_levels != 0 || d.num_samples != 0 {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    // The buffer of a 1D buffer image or of a 2D image from a buffer
    // (cl_khr_image2d_from_buffer); the image shares its memory.
    let buffer = if d.mem_object.is_null() {
        if ty == ImageType::Image1DBuffer {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        None
    } else {
        let b = memory::get(d.mem_object).map_err(|_| CL_INVALID_IMAGE_DESCRIPTOR)?;
        if !Arc::ptr_eq(&b.context, &context) {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        if b.pipe.is_some() {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        match (ty, b.image.is_some()) {
            (ImageType::Image1DBuffer, false) | (ImageType::Image2D, false) => {}
            // A 2D image from a 2D image may only change an sRGB order to
            // its linear one or back, and Lockstep has no sRGB formats.
            (ImageType::Image2D, true) => return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
            _ => return Err(CL_INVALID_IMAGE_DESCRIPTOR),
        }
        Some(b)
    };
    // An image from a buffer takes the access, host access and host
    // pointer flags it does not give from the buffer.
    let flags = match &buffer {
        Some(b) => memory::derived_flags(flags, b.flags)?,
        None => flags,
    };
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0 && buffer.is_none();
    if wants_ptr == host_ptr.is_null() {
        return Err(CL_INVALID_HOST_PTR);
    }
    if !format.is_supported() {
        return Err(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    }
    let es = format.element_size().ok_or(CL_IMAGE_FORMAT_NOT_SUPPORTED)?;
    let (height, depth, array_size) = match ty {
        ImageType::Image1D | ImageType::Image1DBuffer => (1, 1, 1),
        ImageType::Image1DArray => (1, 1, d.image_array_size),
        ImageType::Image2D => (d.image_height, 1, 1),
        ImageType::Image2DArray => (d.image_height, 1, d.image_array_size),
        ImageType::Image3D => (d.image_height, d.image_depth, 1),
    };
    let desc = ImageDesc {
        ty,
        width: d.image_width,
        height,
        depth,
        array_size,
    };
    if let Some(b) = &buffer {
        let image = image_in_buffer(format, desc, es, &d, b)?;
        return Ok(new_image(
            &context, properties, flags, image, buffer, 0, 0, None,
        ));
    }
    let image = Image::new(format, desc).map_err(image_error)?;
    // The application's layout: pitches 0 (packed) or at least a row /
    // slice; given only with a host pointer.
    let ext = desc.extent();
    let row = ext[0] * es;
    if host_ptr.is_null() && (d.image_row_pitch != 0 || d.image_slice_pitch != 0) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let row_pitch = if d.image_row_pitch == 0 {
        row
    } else {
        d.image_row_pitch
    };
    if row_pitch < row || row_pitch % es != 0 {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    // Host rows (layers of a 1D array) and slices (layers of a 2D array).
    let (host_row, host_slice) = match ty {
        ImageType::Image1DArray => {
            let sp = if d.image_slice_pitch == 0 {
                row_pitch
            } else {
                d.image_slice_pitch
            };
            if sp < row_pitch || sp % row_pitch != 0 {
                return Err(CL_INVALID_IMAGE_DESCRIPTOR);
            }
            // `write_region` takes a 1D array's layer pitch as the slice
            // pitch (as OpenCL defines it).
            (row_pitch, sp)
        }
        ImageType::Image2DArray | ImageType::Image3D => {
            let min = row_pitch * ext[1];
            let sp = if d.image_slice_pitch == 0 {
                min
            } else {
                d.image_slice_pitch
            };
            if sp < min || sp % row_pitch != 0 {
                return Err(CL_INVALID_IMAGE_DESCRIPTOR);
            }
            (row_pitch, sp)
        }
        _ => (row_pitch, row_pitch * ext[1]),
    };
    if !host_ptr.is_null() {
        image.write_region([0; 3], ext, host_ptr as *const u8, host_row, host_slice);
    }
    let flags = if flags & memory::ACCESS_FLAGS == 0 {
        flags | CL_MEM_READ_WRITE
    } else {
        flags
    };
    let host = (flags & CL_MEM_USE_HOST_PTR != 0).then_some(host_ptr as *mut u8);
    Ok(new_image(
        &context, properties, flags, image, None, host_row, host_slice, host,
    ))
}

/// The image of a 1D buffer image or a 2D image from a buffer, its texels
/// in `buffer`'s memory, with the spec's errors: a row pitch (0: packed)
/// below a row is CL_INVALID_IMAGE_DESCRIPTOR, one or a buffer address that
/// breaks the device's pitch or base address alignment
/// CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, texels past the buffer's end
/// CL_INVALID_IMAGE_SIZE.
fn image_in_buffer(
    format: ImageFormat,
    desc: ImageDesc,
    es: usize,
    d: &cl_image_desc,
    buffer: &Object<Mem>,
) -> Result<Image, cl_int> {
    use lockstep_runtime::image::limits;
    if d.image_slice_pitch != 0 {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let row = desc.width.checked_mul(es).ok_or(CL_INVALID_IMAGE_SIZE)?;
    let row_pitch = match d.image_row_pitch {
        0 => row,
        p if p < row => return Err(CL_INVALID_IMAGE_DESCRIPTOR),
        p => p,
    };
    if desc.ty == ImageType::Image2D {
        let pitch_align = limits::IMAGE_PITCH_ALIGNMENT as usize * es;
        let base_align = limits::IMAGE_BASE_ADDRESS_ALIGNMENT as usize * es;
        if !row_pitch.is_multiple_of(pitch_align)
            || !(buffer.storage.as_ptr() as usize).is_multiple_of(base_align)
        {
            return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        }
    } else if row_pitch != row {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    if row_pitch
        .checked_mul(desc.height)
        .is_none_or(|n| n > buffer.size)
    {
        return Err(CL_INVALID_IMAGE_SIZE);
    }
    Image::in_storage(format, desc, &buffer.storage, row_pitch).map_err(image_error)
}

/// A new image memory object; `host` is the application's memory of a
/// CL_MEM_USE_HOST_PTR image, laid out with those pitches.
#[allow(clippy::too_many_arguments)]
fn new_image(
    context: &Arc<Object<Context>>,
    properties: Vec<cl_mem_properties>,
    flags: cl_mem_flags,
    image: Image,
    buffer: Option<Arc<Object<Mem>>>,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    host: Option<*mut u8>,
) -> cl_mem {
    memory::new_mem(Mem {
        context: Retained::new(context),
        flags,
        size: image.size(),
        storage: image.storage().clone(),
        host_ptr: SendPtr(host.unwrap_or(std::ptr::null_mut())),
        uses_svm: false,
        parent: None,
        origin: 0,
        properties,
        mapped: Mutex::new(Vec::new()),
        destructors: Mutex::new(Vec::new()),
        handle: AtomicUsize::new(0),
        pipe: None,
        image: Some(ImageMem {
            image,
            buffer: buffer.as_ref().map(Retained::new),
            host_row_pitch,
            host_slice_pitch,
        }),
    })
}

pub unsafe extern "C" fn clCreateImage(
    context: cl_context,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: *const cl_image_desc,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    creator(errcode_ret, || {
        create_image(context, Vec::new(), flags, format, desc, host_ptr)
    })
}

pub unsafe extern "C" fn clCreateImageWithProperties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: *const cl_image_desc,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    creator(errcode_ret, || {
        let mut props = Vec::new();
        if !properties.is_null() {
            if *properties != 0 {
                crate::context::get(context)?;
                return Err(CL_INVALID_PROPERTY);
            }
            props.push(0);
        }
        create_image(context, props, flags, format, desc, host_ptr)
    })
}

fn desc_2d_3d(ty: cl_uint, w: usize, h: usize, d: usize, rp: usize, sp: usize) -> cl_image_desc {
    cl_image_desc {
        image_type: ty,
        image_width: w,
        image_height: h,
        image_depth: d,
        image_array_size: 0,
        image_row_pitch: rp,
        image_slice_pitch: sp,
        num_mip_levels: 0,
        num_samples: 0,
        mem_object: std::ptr::null_mut(),
    }
}

pub unsafe extern "C" fn clCreateImage2D(
    context: cl_context,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    width: usize,
    height: usize,
    row_pitch: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    let desc = desc_2d_3d(CL_MEM_OBJECT_IMAGE2D, width, height, 0, row_pitch, 0);
    clCreateImage(context, flags, format, &desc, host_ptr, errcode_ret)
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clCreateImage3D(
    context: cl_context,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    width: usize,
    height: usize,
    depth: usize,
    row_pitch: usize,
    slice_pitch: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    let desc = desc_2d_3d(
        CL_MEM_OBJECT_IMAGE3D,
        width,
        height,
        depth,
        row_pitch,
        slice_pitch,
    );
    clCreateImage(context, flags, format, &desc, host_ptr, errcode_ret)
}

pub unsafe extern "C" fn clGetSupportedImageFormats(
    context: cl_context,
    flags: cl_mem_flags,
    image_type: cl_mem_object_type,
    num_entries: cl_uint,
    formats: *mut cl_image_format,
    num_formats: *mut cl_uint,
) -> cl_int {
    status(|| {
        crate::context::get(context)?;
        memory::check_flags(flags)?;
        if ImageType::from_cl(image_type).is_none() || (num_entries == 0 && !formats.is_null()) {
            return Err(CL_INVALID_VALUE);
        }
        let all = lockstep_runtime::image::supported_formats();
        if !formats.is_null() {
            for (i, f) in all.iter().take(num_entries as usize).enumerate() {
                *formats.add(i) = cl_image_format {
                    image_channel_order: f.order,
                    image_channel_data_type: f.data_type,
                };
            }
        }
        if !num_formats.is_null() {
            *num_formats = all.len() as cl_uint;
        }
        Ok(())
    })
}

/// The image of a handle: CL_INVALID_MEM_OBJECT for anything else.
fn image_of(m: &Object<Mem>) -> Result<&ImageMem, cl_int> {
    m.image.as_ref().ok_or(CL_INVALID_MEM_OBJECT)
}

pub unsafe extern "C" fn clGetImageInfo(
    image: cl_mem,
    param_name: cl_uint,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let m = memory::get(image)?;
        let i = image_of(&m)?;
        let img = &i.image;
        let desc = img.desc();
        let ty = desc.ty;
        let info = match param_name {
            CL_IMAGE_FORMAT => {
                let f = img.format();
                Info::from(f.order as u64 | (f.data_type as u64) << 32)
            }
            CL_IMAGE_ELEMENT_SIZE => Info::from(img.element_size()),
            CL_IMAGE_ROW_PITCH => Info::from(img.row_pitch()),
            CL_IMAGE_SLICE_PITCH => Info::from(match ty {
                ImageType::Image1DArray => img.row_pitch(),
                ImageType::Image2DArray | ImageType::Image3D => img.slice_pitch(),
                _ => 0,
            }),
            CL_IMAGE_WIDTH => Info::from(desc.width),
            CL_IMAGE_HEIGHT => Info::from(match ty {
                ImageType::Image2D | ImageType::Image2DArray | ImageType::Image3D => desc.height,
                _ => 0,
            }),
            CL_IMAGE_DEPTH => Info::from(if ty == ImageType::Image3D {
                desc.depth
            } else {
                0
            }),
            CL_IMAGE_ARRAY_SIZE => Info::from(if ty.is_array() { desc.array_size } else { 0 }),
            CL_IMAGE_BUFFER => Info::ptr(
                i.buffer
                    .as_ref()
                    .map_or(std::ptr::null_mut(), |b| handle::handle(b))
                    as *const c_void,
            ),
            CL_IMAGE_NUM_MIP_LEVELS | CL_IMAGE_NUM_SAMPLES => Info::from(0 as cl_uint),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

/// Reads origin and region and checks them against the image: unused
/// dimensions must be origin 0 and region 1.
unsafe fn image_box(
    img: &Image,
    origin: *const usize,
    region: *const usize,
) -> Result<([usize; 3], [usize; 3]), cl_int> {
    if origin.is_null() || region.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    let o = [*origin, *origin.add(1), *origin.add(2)];
    let r = [*region, *region.add(1), *region.add(2)];
    let dims = match img.desc().ty {
        ImageType::Image1D | ImageType::Image1DBuffer => 1,
        ImageType::Image1DArray | ImageType::Image2D => 2,
        _ => 3,
    };
    if (dims..3).any(|d| o[d] != 0 || r[d] != 1) || !img.contains(o, r) {
        return Err(CL_INVALID_VALUE);
    }
    Ok((o, r))
}

#[allow(clippy::too_many_arguments)]
unsafe fn host_image(
    queue: cl_command_queue,
    image: cl_mem,
    blocking: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *mut c_void,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
    write: bool,
) -> Result<(), cl_int> {
    let (q, m) = memory::queue_and_object(queue, image)?;
    let img = image_of(&m)?.image.clone();
    let wait = wait_list(&q.context, num, list)?;
    let (o, r) = image_box(&img, origin, region)?;
    if ptr.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    let row = r[0] * img.element_size();
    let ty = img.desc().ty;
    if (row_pitch != 0 && row_pitch < row)
        || (slice_pitch != 0
            && matches!(
                ty,
                ImageType::Image1D | ImageType::Image1DBuffer | ImageType::Image2D
            ))
        || (slice_pitch != 0
            && slice_pitch
                < row_pitch.max(row)
                    * if ty == ImageType::Image1DArray {
                        1
                    } else {
                        r[1]
                    })
    {
        return Err(CL_INVALID_VALUE);
    }
    if (write && !m.host_can_write()) || (!write && !m.host_can_read()) {
        return Err(CL_INVALID_OPERATION);
    }
    let host = SendPtr(ptr as *mut u8);
    let e = Enqueue {
        queue: &q,
        command_type: if write {
            CL_COMMAND_WRITE_IMAGE
        } else {
            CL_COMMAND_READ_IMAGE
        },
        wait,
        event_out: event,
        blocking: blocking != 0,
        uses: vec![m.clone()],
    };
    enqueue(
        e,
        Box::new(move || {
            let host = host;
            // SAFETY: the box is inside the image; the host memory is the
            // application's to keep valid.
            unsafe {
                if write {
                    img.write_region(o, r, host.0, row_pitch, slice_pitch);
                } else {
                    img.read_region(o, r, host.0, row_pitch, slice_pitch);
                }
            }
            Ok(())
        }),
    )
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueReadImage(
    queue: cl_command_queue,
    image: cl_mem,
    blocking: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *mut c_void,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        host_image(
            queue,
            image,
            blocking,
            origin,
            region,
            row_pitch,
            slice_pitch,
            ptr,
            num,
            list,
            event,
            false,
        )
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueWriteImage(
    queue: cl_command_queue,
    image: cl_mem,
    blocking: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *const c_void,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        host_image(
            queue,
            image,
            blocking,
            origin,
            region,
            row_pitch,
            slice_pitch,
            ptr as *mut c_void,
            num,
            list,
            event,
            true,
        )
    })
}

/// Reads an origin (three values; no region check).
unsafe fn read_origin(origin: *const usize) -> Result<[usize; 3], cl_int> {
    if origin.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    Ok([*origin, *origin.add(1), *origin.add(2)])
}

/// Checks a box given by origin and a region already read, like
/// [`image_box`].
fn check_box(img: &Image, o: [usize; 3], r: [usize; 3]) -> Result<(), cl_int> {
    if !img.contains(o, r) {
        return Err(CL_INVALID_VALUE);
    }
    let dims = match img.desc().ty {
        ImageType::Image1D | ImageType::Image1DBuffer => 1,
        ImageType::Image1DArray | ImageType::Image2D => 2,
        _ => 3,
    };
    if (dims..3).any(|d| o[d] != 0) {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueCopyImage(
    queue: cl_command_queue,
    src_image: cl_mem,
    dst_image: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, src) = memory::queue_and_object(queue, src_image)?;
        let (_, dst) = memory::queue_and_object(queue, dst_image)?;
        let (si, di) = (image_of(&src)?.image.clone(), image_of(&dst)?.image.clone());
        let wait = wait_list(&q.context, num, list)?;
        if si.format() != di.format() {
            return Err(CL_IMAGE_FORMAT_MISMATCH);
        }
        let r = memory::read_region(region)?;
        let (so, dso) = (read_origin(src_origin)?, read_origin(dst_origin)?);
        check_box(&si, so, r)?;
        check_box(&di, dso, r)?;
        if Arc::ptr_eq(si.storage(), di.storage())
            && (0..3).all(|d| so[d] < dso[d] + r[d] && dso[d] < so[d] + r[d])
        {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        let row = r[0] * si.element_size();
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_COPY_IMAGE,
            wait,
            event_out: event,
            blocking: false,
            uses: vec![src.clone(), dst.clone()],
        };
        enqueue(
            e,
            Box::new(move || {
                let rows = si
                    .rows(so, r)
                    .zip(di.rows(dso, r))
                    .map(|(s, d)| (s, d, row));
                memory::copy_rows(si.texels(), di.texels(), rows);
                Ok(())
            }),
        )
    })
}

/// True if a box of an image and `size` bytes at `offset` of a buffer
/// share memory (an image created from that buffer, or from a buffer that
/// shares its memory).
fn shares_bytes(
    img: &Image,
    origin: [usize; 3],
    region: [usize; 3],
    buffer: &lockstep_runtime::Storage,
    offset: usize,
    size: usize,
) -> bool {
    if img.is_self_contained() {
        return false;
    }
    let row = region[0] * img.element_size();
    let texels = img.texels().as_ptr() as usize;
    let start = buffer.as_ptr() as usize + offset;
    img.rows(origin, region).any(|at| {
        let row_start = texels + at;
        row_start < start + size && start < row_start + row
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueCopyImageToBuffer(
    queue: cl_command_queue,
    src_image: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    region: *const usize,
    dst_offset: usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, src) = memory::queue_and_object(queue, src_image)?;
        let (_, dst) = memory::queue_and_object(queue, dst_buffer)?;
        let si = image_of(&src)?.image.clone();
        if !dst.is_buffer() {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        let wait = wait_list(&q.context, num, list)?;
        let r = memory::read_region(region)?;
        let so = read_origin(src_origin)?;
        check_box(&si, so, r)?;
        let row = r[0] * si.element_size();
        if !memory::in_bounds(dst_offset, row * r[1] * r[2], dst.size) {
            return Err(CL_INVALID_VALUE);
        }
        if shares_bytes(&si, so, r, &dst.storage, dst_offset, row * r[1] * r[2]) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        let d = dst.storage.clone();
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_COPY_IMAGE_TO_BUFFER,
            wait,
            event_out: event,
            blocking: false,
            uses: vec![src.clone(), dst.clone()],
        };
        enqueue(
            e,
            Box::new(move || {
                let rows = si
                    .rows(so, r)
                    .enumerate()
                    .map(|(i, s)| (s, dst_offset + i * row, row));
                memory::copy_rows(si.texels(), &d, rows);
                Ok(())
            }),
        )
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueCopyBufferToImage(
    queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_image: cl_mem,
    src_offset: usize,
    dst_origin: *const usize,
    region: *const usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, src) = memory::queue_and_object(queue, src_buffer)?;
        let (_, dst) = memory::queue_and_object(queue, dst_image)?;
        let di = image_of(&dst)?.image.clone();
        if !src.is_buffer() {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        let wait = wait_list(&q.context, num, list)?;
        let r = memory::read_region(region)?;
        let dso = read_origin(dst_origin)?;
        check_box(&di, dso, r)?;
        let row = r[0] * di.element_size();
        if !memory::in_bounds(src_offset, row * r[1] * r[2], src.size) {
            return Err(CL_INVALID_VALUE);
        }
        if shares_bytes(&di, dso, r, &src.storage, src_offset, row * r[1] * r[2]) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        let s = src.storage.clone();
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_COPY_BUFFER_TO_IMAGE,
            wait,
            event_out: event,
            blocking: false,
            uses: vec![src.clone(), dst.clone()],
        };
        enqueue(
            e,
            Box::new(move || {
                let rows = di
                    .rows(dso, r)
                    .enumerate()
                    .map(|(i, d)| (src_offset + i * row, d, row));
                memory::copy_rows(&s, di.texels(), rows);
                Ok(())
            }),
        )
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueFillImage(
    queue: cl_command_queue,
    image: cl_mem,
    fill_color: *const c_void,
    origin: *const usize,
    region: *const usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, m) = memory::queue_and_object(queue, image)?;
        let img = image_of(&m)?.image.clone();
        let wait = wait_list(&q.context, num, list)?;
        if fill_color.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let (o, r) = image_box(&img, origin, region)?;
        let color = *(fill_color as *const [u8; 16]);
        let texel = img.texel_from_color(&color);
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_FILL_IMAGE,
            wait,
            event_out: event,
            blocking: false,
            uses: vec![m.clone()],
        };
        enqueue(
            e,
            Box::new(move || {
                img.fill(o, r, &texel);
                Ok(())
            }),
        )
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueMapImage(
    queue: cl_command_queue,
    image: cl_mem,
    blocking: cl_bool,
    map_flags: cl_map_flags,
    origin: *const usize,
    region: *const usize,
    row_pitch: *mut usize,
    slice_pitch: *mut usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    creator(errcode_ret, || {
        let (q, m) = memory::queue_and_object(queue, image)?;
        let im = image_of(&m)?;
        let img = im.image.clone();
        let wait = wait_list(&q.context, num, list)?;
        let (o, _r) = image_box(&img, origin, region)?;
        if row_pitch.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let ty = img.desc().ty;
        if slice_pitch.is_null()
            && matches!(
                ty,
                ImageType::Image3D | ImageType::Image1DArray | ImageType::Image2DArray
            )
        {
            return Err(CL_INVALID_VALUE);
        }
        let known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
        if map_flags & !known != 0
            || (map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0
                && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0)
        {
            return Err(CL_INVALID_VALUE);
        }
        if (map_flags & CL_MAP_READ != 0 && !m.host_can_read())
            || (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0
                && !m.host_can_write())
        {
            return Err(CL_INVALID_OPERATION);
        }
        // USE_HOST_PTR: the application's memory, brought up to date (the
        // copy runs when the command does); else the image's own texels.
        let host = m.host_ptr;
        let (rp, sp, ptr) = if host.0.is_null() {
            let sp = match ty {
                ImageType::Image1DArray => img.row_pitch(),
                ImageType::Image2DArray | ImageType::Image3D => img.slice_pitch(),
                _ => 0,
            };
            (
                img.row_pitch(),
                sp,
                img.texels().as_ptr().add(img.offset(o)),
            )
        } else {
            let (hr, hs) = (im.host_row_pitch, im.host_slice_pitch);
            let sp = match ty {
                ImageType::Image1DArray => hr,
                ImageType::Image2DArray | ImageType::Image3D => hs,
                _ => 0,
            };
            (
                hr,
                sp,
                host.0
                    .add(o[0] * img.element_size() + o[1] * hr + o[2] * hs),
            )
        };
        let copy_out = (!host.0.is_null()).then(|| (im.host_row_pitch, im.host_slice_pitch));
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_MAP_IMAGE,
            wait,
            event_out: event,
            blocking: blocking != 0,
            uses: vec![m.clone()],
        };
        enqueue(
            e,
            Box::new(move || {
                let host = host;
                if let Some((hr, hs)) = copy_out {
                    // SAFETY: USE_HOST_PTR memory holds the whole image.
                    unsafe { img.read_region([0; 3], img.desc().extent(), host.0, hr, hs) };
                }
                Ok(())
            }),
        )?;
        *row_pitch = rp;
        if !slice_pitch.is_null() {
            *slice_pitch = sp;
        }
        m.mapped
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(ptr as usize);
        Ok(ptr as *mut c_void)
    })
}

// ---------------------------------------------------------------------------
// Samplers
// ---------------------------------------------------------------------------

pub struct SamplerObject {
    pub context: Retained<Context>,
    pub sampler: Sampler,
    properties: Vec<cl_properties>,
}

impl ClType for SamplerObject {
    const KIND: Kind = Kind::Sampler;
    const INVALID: cl_int = CL_INVALID_SAMPLER;
}

pub fn get_sampler(s: cl_sampler) -> Result<Arc<Object<SamplerObject>>, cl_int> {
    handle::get::<SamplerObject>(s)
}

unsafe fn create_sampler(
    context: cl_context,
    normalized: cl_bool,
    addressing: cl_uint,
    filter: cl_uint,
    properties: Vec<cl_properties>,
) -> Result<cl_sampler, cl_int> {
    let context = crate::context::get(context)?;
    let sampler = Sampler {
        normalized: match normalized {
            0 => false,
            1 => true,
            _ => return Err(CL_INVALID_VALUE),
        },
        addressing: AddressingMode::from_cl(addressing).ok_or(CL_INVALID_VALUE)?,
        filter: FilterMode::from_cl(filter).ok_or(CL_INVALID_VALUE)?,
    };
    let object = handle::create(SamplerObject {
        context: Retained::new(&context),
        sampler,
        properties,
    });
    Ok(handle::handle(&object))
}

pub unsafe extern "C" fn clCreateSampler(
    context: cl_context,
    normalized: cl_bool,
    addressing: cl_uint,
    filter: cl_uint,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    creator(errcode_ret, || {
        create_sampler(context, normalized, addressing, filter, Vec::new())
    })
}

pub unsafe extern "C" fn clCreateSamplerWithProperties(
    context: cl_context,
    properties: *const cl_properties,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    creator(errcode_ret, || {
        let (mut normalized, mut addressing, mut filter) =
            (1 as cl_bool, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
        let mut props = Vec::new();
        if !properties.is_null() {
            let mut p = properties;
            let mut seen = Vec::new();
            while *p != 0 {
                let (name, value) = (*p, *p.add(1));
                if seen.contains(&name) {
                    crate::context::get(context)?;
                    return Err(CL_INVALID_VALUE);
                }
                seen.push(name);
                match name as cl_uint {
                    CL_SAMPLER_NORMALIZED_COORDS => normalized = value as cl_bool,
                    CL_SAMPLER_ADDRESSING_MODE => addressing = value as cl_uint,
                    CL_SAMPLER_FILTER_MODE => filter = value as cl_uint,
                    _ => {
                        crate::context::get(context)?;
                        return Err(CL_INVALID_VALUE);
                    }
                }
                props.extend([name, value]);
                p = p.add(2);
            }
            props.push(0);
        }
        create_sampler(context, normalized, addressing, filter, props)
    })
}

pub unsafe extern "C" fn clRetainSampler(sampler: cl_sampler) -> cl_int {
    status(|| {
        get_sampler(sampler)?.retain();
        Ok(())
    })
}

pub unsafe extern "C" fn clReleaseSampler(sampler: cl_sampler) -> cl_int {
    status(|| {
        get_sampler(sampler)?.release();
        Ok(())
    })
}

pub unsafe extern "C" fn clGetSamplerInfo(
    sampler: cl_sampler,
    param_name: cl_uint,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let s = get_sampler(sampler)?;
        let info = match param_name {
            CL_SAMPLER_REFERENCE_COUNT => Info::from(s.ref_count()),
            CL_SAMPLER_CONTEXT => Info::ptr(handle::handle(&s.context)),
            CL_SAMPLER_NORMALIZED_COORDS => Info::bool(s.sampler.normalized),
            CL_SAMPLER_ADDRESSING_MODE => Info::from(s.sampler.addressing.to_cl()),
            CL_SAMPLER_FILTER_MODE => Info::from(s.sampler.filter.to_cl()),
            CL_SAMPLER_PROPERTIES => Info::list(&s.properties),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}
