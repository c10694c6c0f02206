// Image objects: clCreateImage (every image type, host-pointer flags, 1-D images over a
// buffer's storage), the legacy 2-D/3-D constructors and clGetImageInfo. Pixels live in
// host memory laid out as the API describes them (rows rowPitch bytes apart, slices
// slicePitch bytes apart), so kernels, commands and maps all use the same bytes.
#include "runtime/image.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "runtime/core_api.h"
#include "runtime/info_reply.h"
#include "runtime/mem.h"

namespace spvsim::rt {
namespace {

constexpr cl_mem_flags kAccess =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_KERNEL_READ_AND_WRITE;
constexpr cl_mem_flags kHostPtr =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags kHostAccess =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr size_t kBaseAlign = 128;

bool validFlags(cl_mem_flags f) {
  if (f & ~(kAccess | kHostPtr | kHostAccess)) return false;
  const cl_mem_flags rw = f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY);
  if (std::popcount(rw) > 1 || std::popcount(f & kHostAccess) > 1) return false;
  // CL_MEM_KERNEL_READ_AND_WRITE qualifies CL_MEM_READ_WRITE only.
  if ((f & CL_MEM_KERNEL_READ_AND_WRITE) && rw && rw != CL_MEM_READ_WRITE) return false;
  return !((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)));
}

ImageType imageType(cl_mem_object_type t) {
  switch (t) {
    case CL_MEM_OBJECT_IMAGE1D:
      return ImageType::Image1D;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      return ImageType::Image1DBuffer;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return ImageType::Image1DArray;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return ImageType::Image2DArray;
    case CL_MEM_OBJECT_IMAGE3D:
      return ImageType::Image3D;
    default:
      return ImageType::Image2D;
  }
}

bool isImageType(cl_mem_object_type t) {
  return t >= CL_MEM_OBJECT_IMAGE2D && t <= CL_MEM_OBJECT_IMAGE1D_BUFFER;
}

// The shape the descriptor asks for, pitches left 0 (CL_INVALID_IMAGE_DESCRIPTOR rules
// that need no pixel size).
cl_int readShape(const cl_image_desc* d, ImageDesc& out) {
  if (!d || !isImageType(d->image_type) || d->num_mip_levels || d->num_samples)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  out.type = imageType(d->image_type);
  const bool is2d = d->image_type == CL_MEM_OBJECT_IMAGE2D ||
                    d->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                    d->image_type == CL_MEM_OBJECT_IMAGE3D;
  const bool isArray =
      d->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY || d->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  out.width = d->image_width;
  out.height = is2d ? d->image_height : 1;
  out.depth = d->image_type == CL_MEM_OBJECT_IMAGE3D ? d->image_depth : 1;
  out.arraySize = isArray ? d->image_array_size : 1;
  if (!out.width || !out.height || !out.depth || !out.arraySize) return CL_INVALID_IMAGE_DESCRIPTOR;
  // Only 1-D buffer images are made from another memory object here (no
  // cl_khr_image2d_from_buffer).
  const bool fromBuffer = d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
  if (fromBuffer != (d->mem_object != nullptr)) return CL_INVALID_IMAGE_DESCRIPTOR;
  return CL_SUCCESS;
}

cl_int checkLimits(const ImageDesc& d) {
  using L = ImageLimits;
  switch (d.type) {
    case ImageType::Image1DBuffer:
      return d.width <= L::kBufferMax ? CL_SUCCESS : CL_INVALID_IMAGE_SIZE;
    case ImageType::Image3D:
      return d.width <= L::k3dMax && d.height <= L::k3dMax && d.depth <= L::k3dMax
                 ? CL_SUCCESS
                 : CL_INVALID_IMAGE_SIZE;
    default:
      return d.width <= L::k2dMax && d.height <= L::k2dMax && d.arraySize <= L::kArrayMax
                 ? CL_SUCCESS
                 : CL_INVALID_IMAGE_SIZE;
  }
}

// Rows per slice and slices of the storage: 1-D arrays keep one row per layer.
size_t rowsPerSlice(const ImageDesc& d) { return d.height; }
size_t slices(const ImageDesc& d) { return d.depth * d.arraySize; }
bool hasSlices(const ImageDesc& d) {
  return d.type == ImageType::Image3D || d.type == ImageType::Image1DArray ||
         d.type == ImageType::Image2DArray;
}

// a * b, or nullopt when it wraps.
std::optional<size_t> product(size_t a, size_t b) {
  size_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

// A pitch the application gives: 0 (tightly packed: `least`) or at least `least` and a
// multiple of `unit`. A pitch is a distance between two rows (slices) of one memory
// object: one larger than the largest object (CL_DEVICE_MAX_MEM_ALLOC_SIZE) describes
// no layout any host_ptr could hold, whatever the size, so it is an invalid descriptor
// value too, and checking it here keeps the products of pitches and counts from wrapping.
cl_int checkPitch(size_t& pitch, size_t least, size_t unit) {
  if (pitch == 0) pitch = least;
  if (pitch < least || pitch % unit || pitch > deviceCaps().maxMemAllocSize)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  return CL_SUCCESS;
}

// The application's pitches for host_ptr (0: tightly packed), checked as the spec says.
// Every product is checked, not assumed bounded by the image limits.
cl_int hostPitches(const cl_image_desc* desc, const ImageDesc& d, size_t pixel, bool hostPtr,
                   size_t& row, size_t& slice) {
  row = desc->image_row_pitch;
  slice = desc->image_slice_pitch;
  // Without host_ptr the pitches must be 0, except for an image created from a buffer
  // (the spec names 2-D ones). A 1-D buffer image has one row, so its row pitch means
  // nothing; the conformance suite passes one (kernel_image_methods, 1Dbuffer) and
  // conformant drivers take it: checked as any row pitch below, then unused.
  const bool fromBuffer = d.type == ImageType::Image1DBuffer;
  if (!hostPtr && (slice || (row && !fromBuffer))) return CL_INVALID_IMAGE_DESCRIPTOR;
  const std::optional<size_t> rowBytes = product(d.width, pixel);
  if (!rowBytes) return CL_INVALID_IMAGE_SIZE;  // a width past every limit
  if (cl_int err = checkPitch(row, *rowBytes, pixel)) return err;
  const std::optional<size_t> sliceBytes = product(row, rowsPerSlice(d));
  if (!sliceBytes) return CL_INVALID_IMAGE_SIZE;  // a height past every limit
  if (!hasSlices(d)) {
    slice = *sliceBytes;  // reported as 0 (clGetImageInfo)
    return CL_SUCCESS;
  }
  return checkPitch(slice, *sliceBytes, row);
}

// A 1-D buffer image's flags: the buffer's where the image gives none, never wider.
cl_int flagsFromBuffer(const _cl_mem* buffer, cl_mem_flags own, cl_mem_flags& out) {
  const cl_mem_flags parent = buffer->flags;
  if (own & kHostPtr) return CL_INVALID_VALUE;
  if ((parent & CL_MEM_WRITE_ONLY) && (own & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
    return CL_INVALID_VALUE;
  if ((parent & CL_MEM_READ_ONLY) && (own & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
    return CL_INVALID_VALUE;
  if ((parent & CL_MEM_HOST_WRITE_ONLY) && (own & CL_MEM_HOST_READ_ONLY)) return CL_INVALID_VALUE;
  if ((parent & CL_MEM_HOST_READ_ONLY) && (own & CL_MEM_HOST_WRITE_ONLY)) return CL_INVALID_VALUE;
  if ((parent & CL_MEM_HOST_NO_ACCESS) && (own & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
    return CL_INVALID_VALUE;
  out = own | (parent & kHostPtr);
  if (!(own & kAccess)) out |= parent & kAccess;
  if (!(own & kHostAccess)) out |= parent & kHostAccess;
  return CL_SUCCESS;
}

uint8_t* allocate(size_t size) {
  size_t rounded = (size + kBaseAlign - 1) / kBaseAlign * kBaseAlign;
  void* p = std::aligned_alloc(kBaseAlign, rounded);
  if (p) std::memset(p, 0, rounded);
  return static_cast<uint8_t*>(p);
}

bool isSupported(const cl_image_format& f, cl_mem_flags flags, cl_mem_object_type type) {
  for (const cl_image_format& s : supportedFormats(flags, type))
    if (s.image_channel_order == f.image_channel_order &&
        s.image_channel_data_type == f.image_channel_data_type)
      return true;
  return false;
}

// Everything about the request that is checked before any storage is touched.
struct Request {
  cl_mem_flags flags = 0;
  ImageDesc shape;
  size_t pixel = 0;
  size_t hostRow = 0, hostSlice = 0;  // the host_ptr's layout
  _cl_mem* buffer = nullptr;          // 1-D buffer images
};

cl_int checkRequest(cl_context context, cl_mem_flags flags, const cl_image_format* format,
                    const cl_image_desc* desc, void* host_ptr, Request& r) {
  if (!checked<_cl_context>(context, Kind::Context)) return CL_INVALID_CONTEXT;
  if (!validFlags(flags)) return CL_INVALID_VALUE;
  std::optional<size_t> pixel = format ? pixelBytes(*format) : std::nullopt;
  if (!pixel) return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  r.pixel = *pixel;
  if (cl_int err = readShape(desc, r.shape)) return err;
  r.shape.format = {format->image_channel_order, format->image_channel_data_type};
  if (cl_int err = checkLimits(r.shape)) return err;  // first: bounds the products below
  const bool wantsPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (cl_int err = hostPitches(desc, r.shape, r.pixel, host_ptr != nullptr, r.hostRow, r.hostSlice))
    return err;
  r.flags = flags;
  if (r.shape.type == ImageType::Image1DBuffer) {
    r.buffer = validBuffer(desc->mem_object);
    if (!r.buffer || r.buffer->context != context) return CL_INVALID_IMAGE_DESCRIPTOR;
    if (r.shape.width * r.pixel > r.buffer->size) return CL_INVALID_IMAGE_SIZE;
    if (cl_int err = flagsFromBuffer(r.buffer, flags, r.flags)) return err;
  }
  if (wantsPtr != (host_ptr != nullptr)) return CL_INVALID_HOST_PTR;
  // The pitches are bounded (checkPitch) and so are the slices (checkLimits): this
  // quotient is the product's overflow check too.
  if (r.hostSlice > deviceCaps().maxMemAllocSize / slices(r.shape)) return CL_INVALID_IMAGE_SIZE;
  if (!isSupported(*format, flags, desc->image_type)) return CL_IMAGE_FORMAT_NOT_SUPPORTED;
  return CL_SUCCESS;
}

// Where an image's pixels live: the buffer's bytes, the application's (USE_HOST_PTR)
// or owned storage.
struct Placement {
  uint8_t* data = nullptr;
  uint8_t* storage = nullptr;  // owned
  void* hostPtr = nullptr;
  size_t size = 0;
};

cl_int placePixels(Request& r, void* host_ptr, Placement& p) {
  ImageDesc& d = r.shape;
  if (r.buffer) {
    d.rowPitch = d.slicePitch = d.width * r.pixel;
    p.data = r.buffer->data;
    p.size = d.rowPitch;
  } else if (r.flags & CL_MEM_USE_HOST_PTR) {
    d.rowPitch = r.hostRow;
    d.slicePitch = r.hostSlice;
    p.data = static_cast<uint8_t*>(host_ptr);
    p.hostPtr = host_ptr;
    p.size = d.slicePitch * slices(d);
  } else {
    d.rowPitch = d.width * r.pixel;
    d.slicePitch = d.rowPitch * rowsPerSlice(d);
    p.size = d.slicePitch * slices(d);
    p.storage = p.data = allocate(p.size);
    if (!p.data) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    if (r.flags & CL_MEM_COPY_HOST_PTR) {
      const size_t region[3] = {d.width * r.pixel, rowsPerSlice(d), slices(d)};
      copyPixels(p.data, {d.rowPitch, d.slicePitch}, static_cast<const uint8_t*>(host_ptr),
                 {r.hostRow, r.hostSlice}, region);
    }
  }
  d.data = p.data;
  d.bytes = p.size;
  return CL_SUCCESS;
}

cl_mem createImage(cl_context context, std::vector<cl_mem_properties> properties,
                   cl_mem_flags flags, const cl_image_format* format, const cl_image_desc* desc,
                   void* host_ptr, cl_int* errcode_ret) {
  Request r;
  if (cl_int err = checkRequest(context, flags, format, desc, host_ptr, r))
    return withError<cl_mem>(errcode_ret, err, nullptr);
  Placement p;
  if (cl_int err = placePixels(r, host_ptr, p)) return withError<cl_mem>(errcode_ret, err, nullptr);
  auto* m = registerObject(new _cl_mem);
  retain(context);
  m->context = context;
  m->type = desc->image_type;
  m->flags = r.flags;
  m->size = p.size;
  m->data = p.data;
  m->storage = p.storage;
  m->hostPtr = p.hostPtr;
  m->properties = std::move(properties);
  m->image = r.shape;
  if (r.buffer) {
    retain(r.buffer);
    m->parent = r.buffer;
  }
  return withError<cl_mem>(errcode_ret, CL_SUCCESS, m);
}

size_t reportedSlicePitch(const ImageDesc& d) { return hasSlices(d) ? d.slicePitch : 0; }

}  // namespace

_cl_mem* validImage(cl_mem mem) {
  _cl_mem* m = checked<_cl_mem>(mem, Kind::Mem);
  return m && isImageType(m->type) ? m : nullptr;
}

cl_int clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                  cl_mem_object_type image_type, cl_uint num_entries,
                                  cl_image_format* image_formats, cl_uint* num_image_formats) {
  if (!checked<_cl_context>(context, Kind::Context)) return CL_INVALID_CONTEXT;
  if (!validFlags(flags) || !isImageType(image_type)) return CL_INVALID_VALUE;
  if (num_entries == 0 && image_formats) return CL_INVALID_VALUE;
  const std::vector<cl_image_format> formats = supportedFormats(flags, image_type);
  if (image_formats)
    std::copy_n(formats.begin(), std::min<size_t>(num_entries, formats.size()), image_formats);
  if (num_image_formats) *num_image_formats = static_cast<cl_uint>(formats.size());
  return CL_SUCCESS;
}

cl_mem clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                     const cl_image_desc* image_desc, void* host_ptr, cl_int* errcode_ret) {
  return createImage(context, {}, flags, image_format, image_desc, host_ptr, errcode_ret);
}

// No image property is supported (OpenCL 3.0 defines none without extensions).
cl_mem clCreateImageWithProperties(cl_context context, const cl_mem_properties* properties,
                                   cl_mem_flags flags, const cl_image_format* image_format,
                                   const cl_image_desc* image_desc, void* host_ptr,
                                   cl_int* errcode_ret) {
  if (!checked<_cl_context>(context, Kind::Context))
    return withError<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  std::vector<cl_mem_properties> props;
  if (properties) {
    if (properties[0] != 0) return withError<cl_mem>(errcode_ret, CL_INVALID_PROPERTY, nullptr);
    props.push_back(0);
  }
  return createImage(context, std::move(props), flags, image_format, image_desc, host_ptr,
                     errcode_ret);
}

cl_mem clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                       size_t image_width, size_t image_height, size_t image_row_pitch,
                       void* host_ptr, cl_int* errcode_ret) {
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = image_width;
  d.image_height = image_height;
  d.image_row_pitch = image_row_pitch;
  return createImage(context, {}, flags, image_format, &d, host_ptr, errcode_ret);
}

cl_mem clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                       size_t image_width, size_t image_height, size_t image_depth,
                       size_t image_row_pitch, size_t image_slice_pitch, void* host_ptr,
                       cl_int* errcode_ret) {
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE3D;
  d.image_width = image_width;
  d.image_height = image_height;
  d.image_depth = image_depth;
  d.image_row_pitch = image_row_pitch;
  d.image_slice_pitch = image_slice_pitch;
  return createImage(context, {}, flags, image_format, &d, host_ptr, errcode_ret);
}

cl_int clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                      void* param_value, size_t* param_value_size_ret) {
  _cl_mem* m = validImage(image);
  if (!m) return CL_INVALID_MEM_OBJECT;
  const ImageDesc& d = m->image;
  const bool is2d = d.type == ImageType::Image2D || d.type == ImageType::Image2DArray ||
                    d.type == ImageType::Image3D;
  const bool isArray = d.type == ImageType::Image1DArray || d.type == ImageType::Image2DArray;
  InfoReply r{param_value_size, param_value, param_value_size_ret};
  switch (param_name) {
    case CL_IMAGE_FORMAT:
      return r.scalar(cl_image_format{d.format.order, d.format.type});
    case CL_IMAGE_ELEMENT_SIZE:
      return r.scalar(*pixelBytes({d.format.order, d.format.type}));
    case CL_IMAGE_ROW_PITCH:
      return r.scalar(size_t(d.rowPitch));
    case CL_IMAGE_SLICE_PITCH:
      return r.scalar(reportedSlicePitch(d));
    case CL_IMAGE_WIDTH:
      return r.scalar(size_t(d.width));
    case CL_IMAGE_HEIGHT:
      return r.scalar(size_t(is2d ? d.height : 0));
    case CL_IMAGE_DEPTH:
      return r.scalar(size_t(d.type == ImageType::Image3D ? d.depth : 0));
    case CL_IMAGE_ARRAY_SIZE:
      return r.scalar(size_t(isArray ? d.arraySize : 0));
    case CL_IMAGE_BUFFER:
      return r.scalar(static_cast<cl_mem>(m->parent));
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES:
      return r.scalar(cl_uint{0});
    default:
      return CL_INVALID_VALUE;
  }
}

}  // namespace spvsim::rt
