//! Images and samplers: formats, the storage layout kernels read, host-side
//! region copies and fills.
//!
//! A kernel's image argument is a `__global` pointer to a [`HEADER`]-byte
//! descriptor, so both engines run the builtin library's
//! `read_image*`/`write_image*`/`get_image_*`
//! (`crates/frontend/builtins/images.cl`) as ordinary code over it, with no
//! image operation in the IR. The descriptor's words are the `LS_D_*`
//! indices of `images.cl`; the two must agree. Its last word is the byte
//! offset from the descriptor to the first texel: an image made by
//! [`Image::new`] keeps its texels right after the descriptor, in one
//! [`Storage`] (offset [`HEADER`]), and an image made by
//! [`Image::in_storage`] (OpenCL's images from buffers) has a descriptor of
//! its own and its texels in the buffer's storage, which it shares: the
//! offset then spans two allocations. Texels are row after row
//! ([`Image::row_pitch`] bytes apart), slice after slice (or layer after
//! layer, [`Image::slice_pitch`] apart).
//!
//! A 1D array keeps its layers where a 2D image keeps its rows (the row
//! pitch is the layer pitch), a 2D array its layers where a 3D image keeps
//! its slices: a texel is at `texels + x * element + y * row_pitch + z *
//! slice_pitch` for every type.
//!
//! A sampler is its OpenCL C `CLK_*` bitfield ([`Sampler::bits`]), the value
//! a `__constant sampler_t` literal has.

use std::sync::Arc;

use crate::buffer::{lock_all, Access, AllocError, Storage};

/// Bytes of descriptor before the texels (keeps texels 64-byte aligned).
pub const HEADER: usize = 64;

/// Channel orders (`cl_channel_order`).
pub mod order {
    pub const R: u32 = 0x10B0;
    pub const A: u32 = 0x10B1;
    pub const RG: u32 = 0x10B2;
    pub const RA: u32 = 0x10B3;
    pub const RGB: u32 = 0x10B4;
    pub const RGBA: u32 = 0x10B5;
    pub const BGRA: u32 = 0x10B6;
    pub const ARGB: u32 = 0x10B7;
    pub const INTENSITY: u32 = 0x10B8;
    pub const LUMINANCE: u32 = 0x10B9;
    pub const ABGR: u32 = 0x10C3;
}

/// Channel data types (`cl_channel_type`).
pub mod channel {
    pub const SNORM_INT8: u32 = 0x10D0;
    pub const SNORM_INT16: u32 = 0x10D1;
    pub const UNORM_INT8: u32 = 0x10D2;
    pub const UNORM_INT16: u32 = 0x10D3;
    pub const UNORM_SHORT_565: u32 = 0x10D4;
    pub const UNORM_SHORT_555: u32 = 0x10D5;
    pub const UNORM_INT_101010: u32 = 0x10D6;
    pub const SIGNED_INT8: u32 = 0x10D7;
    pub const SIGNED_INT16: u32 = 0x10D8;
    pub const SIGNED_INT32: u32 = 0x10D9;
    pub const UNSIGNED_INT8: u32 = 0x10DA;
    pub const UNSIGNED_INT16: u32 = 0x10DB;
    pub const UNSIGNED_INT32: u32 = 0x10DC;
    pub const HALF_FLOAT: u32 = 0x10DD;
    pub const FLOAT: u32 = 0x10DE;
}

/// How a channel converts (`LS_K_*` in images.cl), by data type.
fn kind_code(data_type: u32) -> Option<u32> {
    use channel::*;
    Some(match data_type {
        UNORM_INT8 => 0,
        UNORM_INT16 => 1,
        SNORM_INT8 => 2,
        SNORM_INT16 => 3,
        SIGNED_INT8 => 4,
        SIGNED_INT16 => 5,
        SIGNED_INT32 => 6,
        UNSIGNED_INT8 => 7,
        UNSIGNED_INT16 => 8,
        UNSIGNED_INT32 => 9,
        HALF_FLOAT => 10,
        FLOAT => 11,
        _ => return None,
    })
}

/// Where stored channels go (`LS_S_*` in images.cl), the number of stored
/// channels, and whether the order has alpha.
fn order_code(order: u32) -> Option<(u32, usize, bool)> {
    use self::order::*;
    Some(match order {
        R => (0, 1, false),
        A => (1, 1, true),
        RG => (2, 2, false),
        RA => (3, 2, true),
        RGBA => (4, 4, true),
        BGRA => (5, 4, true),
        ARGB => (6, 4, true),
        INTENSITY => (7, 1, true),
        LUMINANCE => (8, 1, false),
        ABGR => (9, 4, true),
        _ => return None,
    })
}

/// What kind of value a format's texels read as in a kernel.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TexelKind {
    /// `read_imagef` (normalized integers, half, float).
    Float,
    /// `read_imagei`.
    Signed,
    /// `read_imageui`.
    Unsigned,
}

/// An image format: channel order and channel data type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImageFormat {
    pub order: u32,
    pub data_type: u32,
}

impl ImageFormat {
    pub const fn new(order: u32, data_type: u32) -> ImageFormat {
        ImageFormat { order, data_type }
    }

    /// Bytes per channel, if the data type is a known one (packed types
    /// included, as their whole size).
    pub fn channel_size(&self) -> Option<usize> {
        use channel::*;
        Some(match self.data_type {
            SNORM_INT8 | UNORM_INT8 | SIGNED_INT8 | UNSIGNED_INT8 => 1,
            SNORM_INT16 | UNORM_INT16 | SIGNED_INT16 | UNSIGNED_INT16 | HALF_FLOAT => 2,
            UNORM_SHORT_565 | UNORM_SHORT_555 => 2,
            SIGNED_INT32 | UNSIGNED_INT32 | FLOAT | UNORM_INT_101010 => 4,
            _ => return None,
        })
    }

    /// The texel kind kernels read this format as.
    pub fn texel_kind(&self) -> TexelKind {
        use channel::*;
        match self.data_type {
            SIGNED_INT8 | SIGNED_INT16 | SIGNED_INT32 => TexelKind::Signed,
            UNSIGNED_INT8 | UNSIGNED_INT16 | UNSIGNED_INT32 => TexelKind::Unsigned,
            _ => TexelKind::Float,
        }
    }

    /// True if OpenCL defines this combination of order and data type
    /// (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR otherwise): the packed types go
    /// with RGB (and RGBx) only, RGB with them only, INTENSITY and
    /// LUMINANCE with normalized, half and float types, BGRA/ARGB/ABGR
    /// with 8-bit types.
    pub fn is_valid(&self) -> bool {
        use channel::*;
        let Some(_) = self.channel_size() else {
            return false;
        };
        let packed = matches!(
            self.data_type,
            UNORM_SHORT_565 | UNORM_SHORT_555 | UNORM_INT_101010
        );
        match self.order {
            order::RGB | 0x10BC => packed,
            order::INTENSITY | order::LUMINANCE => matches!(
                self.data_type,
                UNORM_INT8 | UNORM_INT16 | SNORM_INT8 | SNORM_INT16 | HALF_FLOAT | FLOAT
            ),
            order::BGRA | order::ARGB | order::ABGR => matches!(
                self.data_type,
                UNORM_INT8 | SNORM_INT8 | SIGNED_INT8 | UNSIGNED_INT8
            ),
            order::R | order::A | order::RG | order::RA | order::RGBA | 0x10BA | 0x10BB => !packed,
            0x10BD..=0x10C2 => !packed, // DEPTH, sRGB*, ...
            _ => false,
        }
    }

    /// True if Lockstep supports the format: every valid one but the
    /// packed types, the `x` orders, depth and sRGB.
    pub fn is_supported(&self) -> bool {
        self.is_valid() && kind_code(self.data_type).is_some() && order_code(self.order).is_some()
    }

    /// Bytes per texel (`CL_IMAGE_ELEMENT_SIZE`), for a supported format.
    pub fn element_size(&self) -> Option<usize> {
        let (_, n, _) = order_code(self.order)?;
        Some(self.channel_size()? * n)
    }

    /// Number of stored channels, for a supported format.
    pub fn channels(&self) -> Option<usize> {
        order_code(self.order).map(|(_, n, _)| n)
    }
}

/// Every format Lockstep supports, for every image type and access
/// (`clGetSupportedImageFormats`): the OpenCL 1.2 and 2.0 minimum lists
/// and more.
pub fn supported_formats() -> Vec<ImageFormat> {
    use channel::*;
    let mut out = Vec::new();
    let all_types = [
        UNORM_INT8,
        UNORM_INT16,
        SNORM_INT8,
        SNORM_INT16,
        SIGNED_INT8,
        SIGNED_INT16,
        SIGNED_INT32,
        UNSIGNED_INT8,
        UNSIGNED_INT16,
        UNSIGNED_INT32,
        HALF_FLOAT,
        FLOAT,
    ];
    for o in [
        order::RGBA,
        order::BGRA,
        order::R,
        order::RG,
        order::A,
        order::RA,
        order::ARGB,
        order::ABGR,
        order::INTENSITY,
        order::LUMINANCE,
    ] {
        for t in all_types {
            let f = ImageFormat::new(o, t);
            if f.is_supported() {
                out.push(f);
            }
        }
    }
    out
}

/// Image types (`cl_mem_object_type`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ImageType {
    Image1D,
    Image1DBuffer,
    Image1DArray,
    Image2D,
    Image2DArray,
    Image3D,
}

impl ImageType {
    /// From the `CL_MEM_OBJECT_IMAGE*` value.
    pub fn from_cl(ty: u32) -> Option<ImageType> {
        Some(match ty {
            0x10F1 => ImageType::Image2D,
            0x10F2 => ImageType::Image3D,
            0x10F3 => ImageType::Image2DArray,
            0x10F4 => ImageType::Image1D,
            0x10F5 => ImageType::Image1DArray,
            0x10F6 => ImageType::Image1DBuffer,
            _ => return None,
        })
    }

    /// The `CL_MEM_OBJECT_IMAGE*` value.
    pub fn to_cl(self) -> u32 {
        match self {
            ImageType::Image2D => 0x10F1,
            ImageType::Image3D => 0x10F2,
            ImageType::Image2DArray => 0x10F3,
            ImageType::Image1D => 0x10F4,
            ImageType::Image1DArray => 0x10F5,
            ImageType::Image1DBuffer => 0x10F6,
        }
    }

    pub fn is_array(self) -> bool {
        matches!(self, ImageType::Image1DArray | ImageType::Image2DArray)
    }

    /// 1, 2 or 3: the dimensions a sampler filters.
    pub fn dims(self) -> usize {
        match self {
            ImageType::Image1D | ImageType::Image1DBuffer | ImageType::Image1DArray => 1,
            ImageType::Image2D | ImageType::Image2DArray => 2,
            ImageType::Image3D => 3,
        }
    }
}

/// Device limits on image sizes (what `clGetDeviceInfo` reports).
pub mod limits {
    pub const IMAGE2D_MAX_WIDTH: usize = 16384;
    pub const IMAGE2D_MAX_HEIGHT: usize = 16384;
    pub const IMAGE3D_MAX_WIDTH: usize = 2048;
    pub const IMAGE3D_MAX_HEIGHT: usize = 2048;
    pub const IMAGE3D_MAX_DEPTH: usize = 2048;
    pub const IMAGE_MAX_ARRAY_SIZE: usize = 2048;
    /// Texels of a 1D buffer image.
    pub const IMAGE_MAX_BUFFER_SIZE: usize = 1 << 27;
    pub const MAX_READ_IMAGE_ARGS: u32 = 128;
    pub const MAX_WRITE_IMAGE_ARGS: u32 = 64;
    pub const MAX_READ_WRITE_IMAGE_ARGS: u32 = 64;
    pub const MAX_SAMPLERS: u32 = 16;
    /// `CL_DEVICE_IMAGE_PITCH_ALIGNMENT` and
    /// `CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT`, in pixels, for 2D images
    /// from buffers (`cl_khr_image2d_from_buffer`): one. Kernels read any
    /// row of whole texels, and a texel's loads need only the alignment of
    /// its own size (buffers are 128-byte aligned; a `CL_MEM_USE_HOST_PTR`
    /// buffer's memory must be aligned to one texel).
    pub const IMAGE_PITCH_ALIGNMENT: u32 = 1;
    pub const IMAGE_BASE_ADDRESS_ALIGNMENT: u32 = 1;
}

/// The extents of an image: width, then height (or the layers of a 1D
/// array), then depth (or the layers of a 2D array); unused ones are 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ImageDesc {
    pub ty: ImageType,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub array_size: usize,
}

impl ImageDesc {
    pub fn new_2d(width: usize, height: usize) -> ImageDesc {
        ImageDesc {
            ty: ImageType::Image2D,
            width,
            height,
            depth: 1,
            array_size: 1,
        }
    }

    /// The extents along the storage's x, y and z axes.
    pub fn extent(&self) -> [usize; 3] {
        match self.ty {
            ImageType::Image1D | ImageType::Image1DBuffer => [self.width, 1, 1],
            ImageType::Image1DArray => [self.width, self.array_size, 1],
            ImageType::Image2D => [self.width, self.height, 1],
            ImageType::Image2DArray => [self.width, self.height, self.array_size],
            ImageType::Image3D => [self.width, self.height, self.depth],
        }
    }
}

/// Why an image cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageError {
    /// The order and data type do not form an OpenCL format.
    InvalidFormat,
    /// A valid format Lockstep does not support.
    UnsupportedFormat,
    /// An extent is 0 or above the device's limits.
    InvalidSize,
    Alloc(AllocError),
}

impl std::fmt::Display for ImageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImageError::InvalidFormat => write!(f, "invalid image format"),
            ImageError::UnsupportedFormat => write!(f, "image format not supported"),
            ImageError::InvalidSize => write!(f, "invalid image size"),
            ImageError::Alloc(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ImageError {}

/// Byte offset of the descriptor's texel offset (an `i64`, `LS_D_TEXELS`
/// in images.cl).
const TEXELS_WORD: usize = 56;

/// An image: format, extents, its descriptor's storage and its texels'.
#[derive(Clone)]
pub struct Image {
    /// The descriptor (and, for an image of its own, the texels after it).
    storage: Arc<Storage>,
    /// The storage holding the texels: `storage`, or a buffer's.
    texels: Arc<Storage>,
    /// The offset of the first texel in `texels`.
    base: usize,
    format: ImageFormat,
    desc: ImageDesc,
    element_size: usize,
    row_pitch: usize,
    slice_pitch: usize,
}

impl Image {
    /// A zeroed image, with texels packed tightly after its descriptor.
    pub fn new(format: ImageFormat, desc: ImageDesc) -> Result<Image, ImageError> {
        let element_size = checked_format(format)?;
        check_size(&desc)?;
        let [w, h, d] = desc.extent();
        let row_pitch = w * element_size;
        let slice_pitch = row_pitch * h;
        let bytes = slice_pitch
            .checked_mul(d)
            .filter(|&b| b <= u32::MAX as usize && slice_pitch <= u32::MAX as usize)
            .ok_or(ImageError::InvalidSize)?;
        let storage = Storage::try_zeroed(HEADER + bytes).map_err(ImageError::Alloc)?;
        let image = Image {
            texels: storage.clone(),
            storage,
            base: HEADER,
            format,
            desc,
            element_size,
            row_pitch,
            slice_pitch,
        };
        image.write_header();
        Ok(image)
    }

    /// An image whose texels are the bytes of `texels` from its start, rows
    /// `row_pitch` bytes apart (0: tightly packed), slices (or 2D layers)
    /// `row_pitch * height` apart: OpenCL's 1D buffer images and 2D images
    /// from buffers. The image shares the memory (what the image's writes
    /// change, the storage's users see, and the other way round) and keeps
    /// it alive; only the descriptor is allocated.
    /// [`ImageError::InvalidSize`] if the texels do not fit in the storage
    /// or a pitch is smaller than a row or not a multiple of the element.
    pub fn in_storage(
        format: ImageFormat,
        desc: ImageDesc,
        texels: &Arc<Storage>,
        row_pitch: usize,
    ) -> Result<Image, ImageError> {
        let element_size = checked_format(format)?;
        check_size(&desc)?;
        let [w, h, d] = desc.extent();
        let row = w * element_size;
        let row_pitch = if row_pitch == 0 { row } else { row_pitch };
        if row_pitch < row || !row_pitch.is_multiple_of(element_size) {
            return Err(ImageError::InvalidSize);
        }
        let slice_pitch = row_pitch.checked_mul(h).ok_or(ImageError::InvalidSize)?;
        let fits = slice_pitch
            .checked_mul(d)
            .is_some_and(|bytes| bytes <= texels.len());
        if !fits || slice_pitch > u32::MAX as usize {
            return Err(ImageError::InvalidSize);
        }
        let storage = Storage::try_zeroed(HEADER).map_err(ImageError::Alloc)?;
        let image = Image {
            storage,
            texels: texels.clone(),
            base: 0,
            format,
            desc,
            element_size,
            row_pitch,
            slice_pitch,
        };
        image.write_header();
        Ok(image)
    }

    fn write_header(&self) {
        let (swizzle, _, alpha) = order_code(self.format.order).expect("supported order");
        let words: [u32; 13] = [
            self.desc.width as u32,
            self.desc.height as u32,
            self.desc.depth as u32,
            self.desc.array_size as u32,
            self.row_pitch as u32,
            self.slice_pitch as u32,
            self.format.order,
            self.format.data_type,
            self.element_size as u32,
            self.format.channel_size().expect("supported type") as u32,
            kind_code(self.format.data_type).expect("supported type"),
            swizzle,
            alpha as u32,
        ];
        // The first texel, from the descriptor: the storages never move.
        let texels = (self.texels.as_ptr() as i64)
            .wrapping_add(self.base as i64)
            .wrapping_sub(self.storage.as_ptr() as i64);
        let _guard = self.storage.write_lock();
        let put = |at: usize, bytes: &[u8]| {
            // SAFETY: the storage holds at least HEADER bytes.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    bytes.as_ptr(),
                    self.storage.as_ptr().add(at),
                    bytes.len(),
                )
            };
        };
        for (i, w) in words.iter().enumerate() {
            put(4 * i, &w.to_le_bytes());
        }
        put(TEXELS_WORD, &texels.to_le_bytes());
    }

    /// True if the texels follow the descriptor in its storage (an image
    /// made by [`Image::new`]): then the storage alone is the image.
    pub fn is_self_contained(&self) -> bool {
        Arc::ptr_eq(&self.storage, &self.texels)
    }

    /// The storage holding the texels (the descriptor's own, or the one
    /// given to [`Image::in_storage`]); [`Image::offset`] and
    /// [`Image::rows`] are offsets into it.
    pub fn texels(&self) -> &Arc<Storage> {
        &self.texels
    }

    /// A self-contained copy of the image (same format, extents and
    /// texels, tightly packed).
    pub fn self_contained_copy(&self) -> Result<Image, ImageError> {
        let copy = Image::new(self.format, self.desc)?;
        copy.copy_texels_from(self);
        Ok(copy)
    }

    /// Copies every texel of `src`, an image of the same format and
    /// extents, into this one.
    ///
    /// # Panics
    /// If the formats or extents differ.
    pub fn copy_texels_from(&self, src: &Image) {
        assert!(self.format == src.format && self.desc.extent() == src.desc.extent());
        let ext = self.desc.extent();
        let n = ext[0] * self.element_size;
        let _guards = lock_all([(&*src.texels, Access::Read), (&*self.texels, Access::Write)]);
        for (s, d) in src.rows([0; 3], ext).zip(self.rows([0; 3], ext)) {
            // SAFETY: both rows lie inside their images.
            unsafe { std::ptr::copy(src.texels.as_ptr().add(s), self.texels.as_ptr().add(d), n) };
        }
    }

    /// The descriptor's storage (followed by the texels in a
    /// self-contained image): what a kernel argument binds.
    pub fn storage(&self) -> &Arc<Storage> {
        &self.storage
    }

    pub fn format(&self) -> ImageFormat {
        self.format
    }

    pub fn desc(&self) -> ImageDesc {
        self.desc
    }

    pub fn element_size(&self) -> usize {
        self.element_size
    }

    /// Bytes between rows (between the layers of a 1D array).
    pub fn row_pitch(&self) -> usize {
        self.row_pitch
    }

    /// Bytes between slices or 2D layers (for 1D and 2D images, the whole
    /// image; for 1D arrays, one layer).
    pub fn slice_pitch(&self) -> usize {
        self.slice_pitch
    }

    /// Bytes of texels, with the rows' and slices' padding
    /// (`CL_MEM_SIZE`).
    pub fn size(&self) -> usize {
        self.slice_pitch * self.desc.extent()[2]
    }

    /// The offset of texel (x, y, z) in [`Image::texels`].
    pub fn offset(&self, at: [usize; 3]) -> usize {
        self.base + at[0] * self.element_size + at[1] * self.row_pitch + at[2] * self.slice_pitch
    }

    /// True if the box `origin + region` lies inside the image (and is not
    /// empty).
    pub fn contains(&self, origin: [usize; 3], region: [usize; 3]) -> bool {
        let ext = self.desc.extent();
        (0..3).all(|i| {
            region[i] > 0
                && origin[i]
                    .checked_add(region[i])
                    .is_some_and(|e| e <= ext[i])
        })
    }

    /// The start of each row of a box, as offsets in [`Image::texels`].
    pub fn rows(
        &self,
        origin: [usize; 3],
        region: [usize; 3],
    ) -> impl Iterator<Item = usize> + Clone + '_ {
        (0..region[2]).flat_map(move |z| {
            (0..region[1]).map(move |y| self.offset([origin[0], origin[1] + y, origin[2] + z]))
        })
    }

    /// Copies the box `origin + region` to host memory at `dst`, rows
    /// `row_pitch` and slices `slice_pitch` bytes apart (0: tightly packed).
    ///
    /// # Safety
    /// `dst` must be valid for the writes; the box must lie inside the image.
    pub unsafe fn read_region(
        &self,
        origin: [usize; 3],
        region: [usize; 3],
        dst: *mut u8,
        row_pitch: usize,
        slice_pitch: usize,
    ) {
        let (rp, sp) = self.host_pitches(region, row_pitch, slice_pitch);
        let n = region[0] * self.element_size;
        let _guard = self.texels.read_lock();
        for z in 0..region[2] {
            for y in 0..region[1] {
                let src = self.offset([origin[0], origin[1] + y, origin[2] + z]);
                std::ptr::copy(self.texels.as_ptr().add(src), dst.add(y * rp + z * sp), n);
            }
        }
    }

    /// Copies host memory at `src` into the box `origin + region`.
    ///
    /// # Safety
    /// `src` must be valid for the reads; the box must lie inside the image.
    pub unsafe fn write_region(
        &self,
        origin: [usize; 3],
        region: [usize; 3],
        src: *const u8,
        row_pitch: usize,
        slice_pitch: usize,
    ) {
        let (rp, sp) = self.host_pitches(region, row_pitch, slice_pitch);
        let n = region[0] * self.element_size;
        let _guard = self.texels.write_lock();
        for z in 0..region[2] {
            for y in 0..region[1] {
                let dst = self.offset([origin[0], origin[1] + y, origin[2] + z]);
                std::ptr::copy(src.add(y * rp + z * sp), self.texels.as_ptr().add(dst), n);
            }
        }
    }

    /// The host's pitches for a box: 0 means tightly packed. The layers of
    /// a 1D array are `slice_pitch` apart on the host (as OpenCL defines).
    pub fn host_pitches(
        &self,
        region: [usize; 3],
        row_pitch: usize,
        slice_pitch: usize,
    ) -> (usize, usize) {
        let row = region[0] * self.element_size;
        let rp = if row_pitch == 0 { row } else { row_pitch };
        if self.desc.ty == ImageType::Image1DArray {
            let sp = if slice_pitch == 0 { row } else { slice_pitch };
            return (sp, sp * region[1]);
        }
        let sp = if slice_pitch == 0 {
            rp * region[1]
        } else {
            slice_pitch
        };
        (rp, sp)
    }

    /// The whole image's texels, tightly packed.
    pub fn read(&self) -> Vec<u8> {
        let ext = self.desc.extent();
        let mut out = vec![0u8; ext.iter().product::<usize>() * self.element_size];
        // SAFETY: `out` holds the whole image, tightly packed.
        unsafe { self.read_region([0; 3], ext, out.as_mut_ptr(), 0, 0) };
        out
    }

    /// Writes the whole image from tightly packed texels.
    ///
    /// # Panics
    /// If `data` is not exactly the image's size.
    pub fn write(&self, data: &[u8]) {
        let ext = self.desc.extent();
        assert_eq!(
            data.len(),
            ext.iter().product::<usize>() * self.element_size
        );
        // SAFETY: `data` holds the whole image, tightly packed.
        unsafe { self.write_region([0; 3], ext, data.as_ptr(), 0, 0) };
    }

    /// Fills the box with one texel (already in the image's format).
    pub fn fill(&self, origin: [usize; 3], region: [usize; 3], texel: &[u8]) {
        debug_assert_eq!(texel.len(), self.element_size);
        let _guard = self.texels.write_lock();
        for z in 0..region[2] {
            for y in 0..region[1] {
                let start = self.offset([origin[0], origin[1] + y, origin[2] + z]);
                for x in 0..region[0] {
                    // SAFETY: inside the image (the caller checked the box).
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            texel.as_ptr(),
                            self.texels.as_ptr().add(start + x * self.element_size),
                            self.element_size,
                        )
                    };
                }
            }
        }
    }

    /// A fill colour (`clEnqueueFillImage`: four floats, ints or uints as
    /// the format reads, 16 bytes) as one texel of the format, converted as
    /// `write_image{f,i,ui}` would.
    pub fn texel_from_color(&self, color: &[u8; 16]) -> Vec<u8> {
        let word = |i: usize| u32::from_le_bytes(color[4 * i..4 * i + 4].try_into().unwrap());
        let rgba = [word(0), word(1), word(2), word(3)];
        let (_, n, _) = order_code(self.format.order).expect("supported order");
        // (r, g, b, a) -> storage order.
        let stored: Vec<u32> = match self.format.order {
            order::A => vec![rgba[3]],
            order::RA => vec![rgba[0], rgba[3]],
            order::BGRA => vec![rgba[2], rgba[1], rgba[0], rgba[3]],
            order::ARGB => vec![rgba[3], rgba[0], rgba[1], rgba[2]],
            order::ABGR => vec![rgba[3], rgba[2], rgba[1], rgba[0]],
            _ => rgba[..n].to_vec(),
        };
        let mut out = Vec::with_capacity(self.element_size);
        for w in stored {
            encode_channel(self.format.data_type, w, &mut out);
        }
        out
    }
}

/// One channel of a fill colour (f32 bits for float formats, i32 / u32 for
/// integer ones) in the data type's bytes.
fn encode_channel(data_type: u32, w: u32, out: &mut Vec<u8>) {
    use channel::*;
    let f = f32::from_bits(w);
    // Round to nearest even, saturating (NaN -> 0), like convert_*_sat_rte.
    let norm = |x: f32, lo: f32, hi: f32| -> i64 {
        if x.is_nan() {
            0
        } else {
            x.clamp(lo, hi).round_ties_even() as i64
        }
    };
    match data_type {
        UNORM_INT8 => out.push(norm(f * 255.0, 0.0, 255.0) as u8),
        UNORM_INT16 => out.extend((norm(f * 65535.0, 0.0, 65535.0) as u16).to_le_bytes()),
        SNORM_INT8 => out.push(norm(f * 127.0, -128.0, 127.0) as i8 as u8),
        SNORM_INT16 => out.extend((norm(f * 32767.0, -32768.0, 32767.0) as i16).to_le_bytes()),
        SIGNED_INT8 => out.push((w as i32).clamp(-128, 127) as i8 as u8),
        SIGNED_INT16 => out.extend(((w as i32).clamp(-32768, 32767) as i16).to_le_bytes()),
        UNSIGNED_INT8 => out.push(w.min(255) as u8),
        UNSIGNED_INT16 => out.extend((w.min(65535) as u16).to_le_bytes()),
        HALF_FLOAT => out.extend((lockstep_interp::convert::f32_to_f16(f) as u16).to_le_bytes()),
        _ => out.extend(w.to_le_bytes()), // SIGNED_INT32, UNSIGNED_INT32, FLOAT
    }
}

/// The element size of a format an image can have.
fn checked_format(format: ImageFormat) -> Result<usize, ImageError> {
    if !format.is_valid() {
        return Err(ImageError::InvalidFormat);
    }
    if !format.is_supported() {
        return Err(ImageError::UnsupportedFormat);
    }
    format.element_size().ok_or(ImageError::InvalidFormat)
}

/// Checks the extents against the device limits.
fn check_size(desc: &ImageDesc) -> Result<(), ImageError> {
    use limits::*;
    let ok = |v: usize, max: usize| v >= 1 && v <= max;
    let fine = match desc.ty {
        ImageType::Image1D => ok(desc.width, IMAGE2D_MAX_WIDTH),
        ImageType::Image1DBuffer => ok(desc.width, IMAGE_MAX_BUFFER_SIZE),
        ImageType::Image1DArray => {
            ok(desc.width, IMAGE2D_MAX_WIDTH) && ok(desc.array_size, IMAGE_MAX_ARRAY_SIZE)
        }
        ImageType::Image2D => {
            ok(desc.width, IMAGE2D_MAX_WIDTH) && ok(desc.height, IMAGE2D_MAX_HEIGHT)
        }
        ImageType::Image2DArray => {
            ok(desc.width, IMAGE2D_MAX_WIDTH)
                && ok(desc.height, IMAGE2D_MAX_HEIGHT)
                && ok(desc.array_size, IMAGE_MAX_ARRAY_SIZE)
        }
        ImageType::Image3D => {
            ok(desc.width, IMAGE3D_MAX_WIDTH)
                && ok(desc.height, IMAGE3D_MAX_HEIGHT)
                && ok(desc.depth, IMAGE3D_MAX_DEPTH)
        }
    };
    if fine {
        Ok(())
    } else {
        Err(ImageError::InvalidSize)
    }
}

/// A sampler: normalized coordinates or not, addressing mode, filter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sampler {
    pub normalized: bool,
    pub addressing: AddressingMode,
    pub filter: FilterMode,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AddressingMode {
    None,
    ClampToEdge,
    Clamp,
    Repeat,
    MirroredRepeat,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FilterMode {
    Nearest,
    Linear,
}

impl AddressingMode {
    /// From `CL_ADDRESS_*`.
    pub fn from_cl(v: u32) -> Option<AddressingMode> {
        Some(match v {
            0x1130 => AddressingMode::None,
            0x1131 => AddressingMode::ClampToEdge,
            0x1132 => AddressingMode::Clamp,
            0x1133 => AddressingMode::Repeat,
            0x1134 => AddressingMode::MirroredRepeat,
            _ => return None,
        })
    }

    pub fn to_cl(self) -> u32 {
        match self {
            AddressingMode::None => 0x1130,
            AddressingMode::ClampToEdge => 0x1131,
            AddressingMode::Clamp => 0x1132,
            AddressingMode::Repeat => 0x1133,
            AddressingMode::MirroredRepeat => 0x1134,
        }
    }
}

impl FilterMode {
    /// From `CL_FILTER_*`.
    pub fn from_cl(v: u32) -> Option<FilterMode> {
        match v {
            0x1140 => Some(FilterMode::Nearest),
            0x1141 => Some(FilterMode::Linear),
            _ => None,
        }
    }

    pub fn to_cl(self) -> u32 {
        match self {
            FilterMode::Nearest => 0x1140,
            FilterMode::Linear => 0x1141,
        }
    }
}

impl Sampler {
    /// The OpenCL C value (`CLK_NORMALIZED_COORDS_* | CLK_ADDRESS_* |
    /// CLK_FILTER_*`).
    pub fn bits(&self) -> u32 {
        let addressing = match self.addressing {
            AddressingMode::None => 0,
            AddressingMode::ClampToEdge => 2,
            AddressingMode::Clamp => 4,
            AddressingMode::Repeat => 6,
            AddressingMode::MirroredRepeat => 8,
        };
        let filter = match self.filter {
            FilterMode::Nearest => 0x10,
            FilterMode::Linear => 0x20,
        };
        self.normalized as u32 | addressing | filter
    }
}
