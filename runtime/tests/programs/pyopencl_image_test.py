"""Images and samplers on the host side, through PyOpenCL against libspvsim-opencl.so:
creation of every image type (host-pointer flags, pitches, 1-D images over a buffer),
queries, read/write/copy/fill/map, image <-> buffer copies, supported formats, samplers
and the errors the OpenCL API spec lists. Expected pixels come from numpy (slicing and
the spec's conversion formulas), never from spvsim itself.
"""

import unittest

import numpy as np
import pyopencl as cl

mf = cl.mem_flags
co = cl.channel_order
ct = cl.channel_type
mot = cl.mem_object_type

RGBA8 = cl.ImageFormat(co.RGBA, ct.UNSIGNED_INT8)
R32F = cl.ImageFormat(co.R, ct.FLOAT)


def image_from_desc(ctx, flags, fmt, image_type, shape, array_size=0, pitches=(0, 0),
                    hostbuf=None, buffer=None):
    """clCreateImage with a descriptor as given: PyOpenCL's Image(shape=...) sets
    image_array_size from the third extent, which leaves 1-D arrays with one layer, and
    refuses some descriptors itself."""
    d = cl.ImageDescriptor()
    d.image_type = image_type
    d.shape = tuple(shape) + (0,) * (3 - len(shape))
    d.array_size = array_size
    d.pitches = pitches
    d.num_mip_levels = 0
    d.num_samples = 0
    d.buffer = buffer
    img = cl.Image.__new__(cl.Image)
    # The constructor PyOpenCL wraps (clCreateImage with the descriptor).
    cl.Image.__init__.__closure__[0].cell_contents(img, ctx, flags, fmt, d, hostbuf)
    return img


class ImageHostTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        platforms = cl.get_platforms()
        assert len(platforms) == 1 and platforms[0].name == "spvsim", platforms
        cls.device = platforms[0].get_devices()[0]
        cls.ctx = cl.Context([cls.device])
        cls.queue = cl.CommandQueue(cls.ctx)

    def assertClError(self, code, fn, *args, **kwargs):
        with self.assertRaises(cl.Error) as cm:
            fn(*args, **kwargs)
        self.assertEqual(cm.exception.code, code, cm.exception)

    # PyOpenCL's enqueue_copy handles 2-D and 3-D images only; these call
    # clEnqueueRead/WriteImage for every type.
    def read(self, img, origin, region, out, row_pitch=0, slice_pitch=0):
        cl._cl._enqueue_read_image(self.queue, img, origin, region, out, row_pitch=row_pitch,
                                   slice_pitch=slice_pitch, is_blocking=True)
        return out

    def write(self, img, origin, region, data, row_pitch=0, slice_pitch=0):
        cl._cl._enqueue_write_image(self.queue, img, origin, region, data, row_pitch=row_pitch,
                                    slice_pitch=slice_pitch, is_blocking=True)

    # --- Device and formats

    def test_device_limits(self):
        d = self.device
        self.assertEqual(d.image_support, 1)
        # OpenCL 3.0 full-profile minimums for devices with images (API spec, table of
        # clGetDeviceInfo queries).
        self.assertGreaterEqual(d.image2d_max_width, 16384)
        self.assertGreaterEqual(d.image2d_max_height, 16384)
        self.assertGreaterEqual(d.image3d_max_width, 2048)
        self.assertGreaterEqual(d.image3d_max_depth, 2048)
        self.assertGreaterEqual(d.image_max_array_size, 2048)
        self.assertGreaterEqual(d.image_max_buffer_size, 65536)
        self.assertGreaterEqual(d.max_read_image_args, 128)
        self.assertGreaterEqual(d.max_write_image_args, 64)
        self.assertGreaterEqual(d.max_samplers, 16)

    def test_supported_formats_include_the_minimum_list(self):
        # OpenCL 3.0 API spec, "Minimum List of Supported Image Formats" (read-only and
        # read-write lists).
        minimum = [(co.RGBA, t) for t in (ct.UNORM_INT8, ct.UNORM_INT16, ct.SNORM_INT8,
                                          ct.SNORM_INT16, ct.SIGNED_INT8, ct.SIGNED_INT16,
                                          ct.SIGNED_INT32, ct.UNSIGNED_INT8, ct.UNSIGNED_INT16,
                                          ct.UNSIGNED_INT32, ct.HALF_FLOAT, ct.FLOAT)]
        minimum += [(co.BGRA, ct.UNORM_INT8), (co.sRGBA, ct.UNORM_INT8)]
        minimum += [(o, t) for o in (co.R, co.RG) for t in (
            ct.UNORM_INT8, ct.UNORM_INT16, ct.SNORM_INT8, ct.SNORM_INT16, ct.SIGNED_INT8,
            ct.SIGNED_INT16, ct.SIGNED_INT32, ct.UNSIGNED_INT8, ct.UNSIGNED_INT16,
            ct.UNSIGNED_INT32, ct.HALF_FLOAT, ct.FLOAT)]
        for flags in (mf.READ_ONLY, mf.WRITE_ONLY, mf.READ_WRITE,
                      mf.READ_WRITE | mf.KERNEL_READ_AND_WRITE):
            for t in (mot.IMAGE1D, mot.IMAGE1D_BUFFER, mot.IMAGE1D_ARRAY, mot.IMAGE2D,
                      mot.IMAGE2D_ARRAY, mot.IMAGE3D):
                got = {(f.channel_order, f.channel_data_type)
                       for f in cl.get_supported_image_formats(self.ctx, flags, t)}
                for pair in minimum:
                    self.assertIn(pair, got, (flags, t))
        self.assertClError(cl.status_code.INVALID_VALUE, cl.get_supported_image_formats,
                           self.ctx, mf.READ_ONLY, mot.BUFFER)

    # --- Creation and queries

    def test_2d_copy_host_ptr_round_trip(self):
        a = np.arange(5 * 3 * 4, dtype=np.uint8).reshape(3, 5, 4)
        img = cl.Image(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, RGBA8, shape=(5, 3), hostbuf=a)
        self.assertEqual(img.type, mot.IMAGE2D)
        self.assertEqual(img.get_image_info(cl.image_info.WIDTH), 5)
        self.assertEqual(img.get_image_info(cl.image_info.HEIGHT), 3)
        self.assertEqual(img.get_image_info(cl.image_info.DEPTH), 0)
        self.assertEqual(img.get_image_info(cl.image_info.ARRAY_SIZE), 0)
        self.assertEqual(img.get_image_info(cl.image_info.ELEMENT_SIZE), 4)
        self.assertEqual(img.get_image_info(cl.image_info.ROW_PITCH), 20)
        self.assertEqual(img.get_image_info(cl.image_info.SLICE_PITCH), 0)
        fmt = img.get_image_info(cl.image_info.FORMAT)
        self.assertEqual((fmt.channel_order, fmt.channel_data_type), (co.RGBA, ct.UNSIGNED_INT8))
        self.assertEqual(img.get_info(cl.mem_info.SIZE), 60)
        out = np.zeros_like(a)
        cl.enqueue_copy(self.queue, out, img, origin=(0, 0), region=(5, 3))
        np.testing.assert_array_equal(out, a)
        # A sub-rectangle: x 1..3, y 1..2.
        part = np.zeros((2, 3, 4), np.uint8)
        cl.enqueue_copy(self.queue, part, img, origin=(1, 1), region=(3, 2))
        np.testing.assert_array_equal(part, a[1:3, 1:4])

    def test_write_with_host_pitch(self):
        img = cl.Image(self.ctx, mf.READ_WRITE, R32F, shape=(4, 3))
        # Host rows of 6 floats, only the first 4 of each are pixels.
        host = np.arange(18, dtype=np.float32).reshape(3, 6)
        self.write(img, (0, 0), (4, 3), host, row_pitch=24)
        out = np.zeros((3, 4), np.float32)
        cl.enqueue_copy(self.queue, out, img, origin=(0, 0), region=(4, 3))
        np.testing.assert_array_equal(out, host[:, :4])

    def test_use_host_ptr_with_pitch_shares_memory(self):
        host = np.zeros((2, 8), np.float32)  # rows of 8 floats, 3 pixels used
        img = cl.Image(self.ctx, mf.READ_WRITE | mf.USE_HOST_PTR, R32F, shape=(3, 2),
                       pitches=(32,), hostbuf=host)
        self.assertEqual(img.get_image_info(cl.image_info.ROW_PITCH), 32)
        vals = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
        cl.enqueue_copy(self.queue, img, vals, origin=(0, 0), region=(3, 2))
        self.queue.finish()
        np.testing.assert_array_equal(host[:, :3], vals)
        np.testing.assert_array_equal(host[:, 3:], 0)

    def test_3d_and_2d_array(self):
        a = np.arange(4 * 3 * 2, dtype=np.float32).reshape(2, 3, 4)
        img3 = cl.Image(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, R32F, shape=(4, 3, 2),
                        hostbuf=a)
        self.assertEqual(img3.type, mot.IMAGE3D)
        self.assertEqual(img3.get_image_info(cl.image_info.DEPTH), 2)
        self.assertEqual(img3.get_image_info(cl.image_info.SLICE_PITCH), 48)
        box = np.zeros((2, 2, 2), np.float32)
        cl.enqueue_copy(self.queue, box, img3, origin=(1, 1, 0), region=(2, 2, 2))
        np.testing.assert_array_equal(box, a[:, 1:3, 1:3])
        arr = cl.Image(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, R32F, shape=(4, 3, 2),
                       hostbuf=a, is_array=True)
        self.assertEqual(arr.type, mot.IMAGE2D_ARRAY)
        self.assertEqual(arr.get_image_info(cl.image_info.ARRAY_SIZE), 2)
        self.assertEqual(arr.get_image_info(cl.image_info.DEPTH), 0)
        layer = np.zeros((1, 3, 4), np.float32)
        cl.enqueue_copy(self.queue, layer, arr, origin=(0, 0, 1), region=(4, 3, 1))
        np.testing.assert_array_equal(layer[0], a[1])

    def test_1d_and_1d_array(self):
        a = np.arange(6, dtype=np.float32)
        img1 = cl.Image(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, R32F, shape=(6,), hostbuf=a)
        self.assertEqual(img1.type, mot.IMAGE1D)
        self.assertEqual(img1.get_image_info(cl.image_info.HEIGHT), 0)
        out = self.read(img1, (2,), (3,), np.zeros(3, np.float32))
        np.testing.assert_array_equal(out, a[2:5])
        b = np.arange(12, dtype=np.float32).reshape(3, 4)  # 3 layers of 4 pixels
        arr = image_from_desc(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, R32F,
                              mot.IMAGE1D_ARRAY, (4,), array_size=3, hostbuf=b)
        self.assertEqual(arr.type, mot.IMAGE1D_ARRAY)
        self.assertEqual(arr.get_image_info(cl.image_info.ARRAY_SIZE), 3)
        self.assertEqual(arr.get_image_info(cl.image_info.HEIGHT), 0)
        self.assertEqual(arr.get_image_info(cl.image_info.SLICE_PITCH), 16)
        two = self.read(arr, (1, 1), (2, 2), np.zeros((2, 2), np.float32))
        np.testing.assert_array_equal(two, b[1:3, 1:3])

    def test_1d_buffer_image_shares_the_buffer(self):
        a = np.arange(32, dtype=np.uint8)
        buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
        img = cl.Image(self.ctx, 0, RGBA8, shape=(8,), buffer=buf)
        self.assertEqual(img.type, mot.IMAGE1D_BUFFER)
        self.assertEqual(img.get_image_info(cl.image_info.BUFFER).int_ptr, buf.int_ptr)
        self.assertEqual(img.get_info(cl.mem_info.ASSOCIATED_MEMOBJECT).int_ptr, buf.int_ptr)
        # The image inherits the buffer's access flags.
        self.assertEqual(img.get_info(cl.mem_info.FLAGS) & mf.READ_WRITE, mf.READ_WRITE)
        px = self.read(img, (0,), (8,), np.zeros((8, 4), np.uint8))
        np.testing.assert_array_equal(px.ravel(), a)
        # A write through the image shows in the buffer.
        self.write(img, (2,), (1,), np.full((1, 4), 200, np.uint8))
        back = np.zeros(32, np.uint8)
        cl.enqueue_copy(self.queue, back, buf)
        expected = a.copy()
        expected[8:12] = 200
        np.testing.assert_array_equal(back, expected)
        # Too wide for the buffer: CL_INVALID_IMAGE_SIZE.
        self.assertClError(cl.status_code.INVALID_IMAGE_SIZE, cl.Image, self.ctx, 0, RGBA8,
                           shape=(9,), buffer=buf)

    # --- Commands

    def test_copy_image_and_overlap(self):
        a = np.arange(8 * 4, dtype=np.float32).reshape(4, 8)
        src = cl.Image(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, R32F, shape=(8, 4), hostbuf=a)
        dst = cl.Image(self.ctx, mf.READ_WRITE, R32F, shape=(8, 4))
        cl.enqueue_fill_image(self.queue, dst, np.array([-1, 0, 0, 0], np.float32), (0, 0), (8, 4))
        cl.enqueue_copy(self.queue, dst, src, src_origin=(2, 1), dest_origin=(0, 2), region=(3, 2))
        out = np.zeros((4, 8), np.float32)
        cl.enqueue_copy(self.queue, out, dst, origin=(0, 0), region=(8, 4))
        expected = np.full((4, 8), -1, np.float32)
        expected[2:4, 0:3] = a[1:3, 2:5]
        np.testing.assert_array_equal(out, expected)
        # Overlapping boxes of one image: CL_MEM_COPY_OVERLAP.
        self.assertClError(cl.status_code.MEM_COPY_OVERLAP, cl.enqueue_copy, self.queue, src, src,
                           src_origin=(0, 0), dest_origin=(1, 1), region=(3, 3))
        # Different formats: CL_IMAGE_FORMAT_MISMATCH.
        other = cl.Image(self.ctx, mf.READ_WRITE, RGBA8, shape=(8, 4))
        self.assertClError(cl.status_code.IMAGE_FORMAT_MISMATCH, cl.enqueue_copy, self.queue,
                           other, src, src_origin=(0, 0), dest_origin=(0, 0), region=(1, 1))

    def test_copy_between_2d_and_3d(self):
        a = np.arange(4 * 4 * 3, dtype=np.float32).reshape(3, 4, 4)
        vol = cl.Image(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, R32F, shape=(4, 4, 3),
                       hostbuf=a)
        flat = cl.Image(self.ctx, mf.READ_WRITE, R32F, shape=(4, 4))
        cl.enqueue_copy(self.queue, flat, vol, src_origin=(0, 0, 2), dest_origin=(0, 0),
                        region=(4, 4, 1))
        out = np.zeros((4, 4), np.float32)
        cl.enqueue_copy(self.queue, out, flat, origin=(0, 0), region=(4, 4))
        np.testing.assert_array_equal(out, a[2])

    def test_fill_conversions(self):
        # write_imagef rules for UNORM_INT8.
        unorm = cl.Image(self.ctx, mf.READ_WRITE, cl.ImageFormat(co.RGBA, ct.UNORM_INT8),
                         shape=(3, 2))
        color = np.array([0.25, 1.5, -0.5, 0.1], np.float32)
        cl.enqueue_fill_image(self.queue, unorm, color, (1, 0), (2, 2))
        out = np.zeros((2, 3, 4), np.uint8)
        cl.enqueue_copy(self.queue, out, unorm, origin=(0, 0), region=(3, 2))
        # convert_uchar_sat_rte(v * 255.0f), the product in single precision.
        px = np.clip(np.rint(color * np.float32(255)), 0, 255).astype(np.uint8)
        expected = np.zeros((2, 3, 4), np.uint8)
        expected[:, 1:] = px
        np.testing.assert_array_equal(out, expected)
        # write_imagei to SIGNED_INT16 saturates to the channel's range.
        sint = cl.Image(self.ctx, mf.READ_WRITE, cl.ImageFormat(co.RG, ct.SIGNED_INT16),
                        shape=(2,))
        cl.enqueue_fill_image(self.queue, sint, np.array([-40000, 1234, 0, 0], np.int32), (0,),
                              (2,))
        out16 = self.read(sint, (0,), (2,), np.zeros((2, 2), np.int16))
        np.testing.assert_array_equal(out16, [[-32768, 1234]] * 2)
        # write_imageui to UNSIGNED_INT32 stores the values as they are.
        uint = cl.Image(self.ctx, mf.READ_WRITE, cl.ImageFormat(co.R, ct.UNSIGNED_INT32),
                        shape=(2, 2, 2))
        cl.enqueue_fill_image(self.queue, uint, np.array([4000000000, 0, 0, 0], np.uint32),
                              (0, 0, 1), (2, 2, 1))
        out32 = np.zeros((2, 2, 2), np.uint32)
        cl.enqueue_copy(self.queue, out32, uint, origin=(0, 0, 0), region=(2, 2, 2))
        np.testing.assert_array_equal(out32[0], 0)
        np.testing.assert_array_equal(out32[1], 4000000000)
        # HALF_FLOAT stores binary16 (numpy's float16 conversion rounds to nearest even).
        half = cl.Image(self.ctx, mf.READ_WRITE, cl.ImageFormat(co.R, ct.HALF_FLOAT), shape=(2,))
        cl.enqueue_fill_image(self.queue, half, np.array([1 / 3, 0, 0, 0], np.float32), (0,), (2,))
        outh = self.read(half, (0,), (2,), np.zeros(2, np.float16))
        np.testing.assert_array_equal(outh, np.float16(np.float32(1 / 3)))

    def test_image_buffer_copies(self):
        a = np.arange(6 * 4 * 4, dtype=np.uint8).reshape(4, 6, 4)
        img = cl.Image(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, RGBA8, shape=(6, 4), hostbuf=a)
        buf = cl.Buffer(self.ctx, mf.READ_WRITE, 8 + 3 * 2 * 4)
        cl.enqueue_copy(self.queue, buf, img, offset=8, origin=(2, 1), region=(3, 2))
        got = np.zeros(8 + 24, np.uint8)
        cl.enqueue_copy(self.queue, got, buf)
        np.testing.assert_array_equal(got[8:].reshape(2, 3, 4), a[1:3, 2:5])
        # And back, into another place.
        img2 = cl.Image(self.ctx, mf.READ_WRITE, RGBA8, shape=(6, 4))
        cl.enqueue_copy(self.queue, img2, buf, offset=8, origin=(0, 0), region=(3, 2))
        out = np.zeros((4, 6, 4), np.uint8)
        cl.enqueue_copy(self.queue, out, img2, origin=(0, 0), region=(6, 4))
        expected = np.zeros_like(a)
        expected[0:2, 0:3] = a[1:3, 2:5]
        np.testing.assert_array_equal(out, expected)
        # A box past the buffer's end: CL_INVALID_VALUE.
        self.assertClError(cl.status_code.INVALID_VALUE, cl.enqueue_copy, self.queue, buf, img,
                           offset=16, origin=(0, 0), region=(3, 2))

    def test_map_image(self):
        a = np.arange(5 * 3, dtype=np.float32).reshape(3, 5)
        img = cl.Image(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, R32F, shape=(5, 3), hostbuf=a)
        # The map shows the image's own rows: 5 floats (20 bytes) apart.
        view = cl.enqueue_map_image(self.queue, img, cl.map_flags.READ | cl.map_flags.WRITE,
                                    (1, 1), (3, 2), (2, 3), np.float32, strides=(20, 4),
                                    is_blocking=True)[0]
        np.testing.assert_array_equal(view, a[1:3, 1:4])
        self.assertEqual(img.get_info(cl.mem_info.MAP_COUNT), 1)
        view[0, 0] = 100
        view.base.release(self.queue)
        self.queue.finish()
        self.assertEqual(img.get_info(cl.mem_info.MAP_COUNT), 0)
        out = np.zeros((3, 5), np.float32)
        cl.enqueue_copy(self.queue, out, img, origin=(0, 0), region=(5, 3))
        expected = a.copy()
        expected[1, 1] = 100
        np.testing.assert_array_equal(out, expected)

    # --- Errors of clCreateImage and the commands

    def test_creation_errors(self):
        s = cl.status_code
        self.assertClError(s.INVALID_IMAGE_FORMAT_DESCRIPTOR, cl.Image, self.ctx, mf.READ_ONLY,
                           cl.ImageFormat(co.RGBA, 0x1234), shape=(4, 4))
        # BGRA takes 8-bit channels only.
        self.assertClError(s.INVALID_IMAGE_FORMAT_DESCRIPTOR, cl.Image, self.ctx, mf.READ_ONLY,
                           cl.ImageFormat(co.BGRA, ct.FLOAT), shape=(4, 4))
        # Valid, but not supported: CL_DEPTH is not in the list.
        self.assertClError(s.IMAGE_FORMAT_NOT_SUPPORTED, cl.Image, self.ctx, mf.READ_ONLY,
                           cl.ImageFormat(0x10BD, ct.FLOAT), shape=(4, 4))  # CL_DEPTH
        self.assertClError(s.INVALID_IMAGE_SIZE, cl.Image, self.ctx, mf.READ_ONLY, RGBA8,
                           shape=(self.device.image2d_max_width + 1, 1))
        self.assertClError(s.INVALID_IMAGE_SIZE, cl.Image, self.ctx, mf.READ_ONLY, RGBA8,
                           shape=(4, 4, self.device.image3d_max_depth + 1))
        self.assertClError(s.INVALID_IMAGE_DESCRIPTOR, cl.Image, self.ctx, mf.READ_ONLY, RGBA8,
                           shape=(4, 0))
        host = np.zeros(64, np.uint8)
        # A row pitch smaller than a row, and one that is not a multiple of the pixel.
        for pitch in (12, 18):
            self.assertClError(s.INVALID_IMAGE_DESCRIPTOR, cl.Image, self.ctx,
                               mf.READ_ONLY | mf.COPY_HOST_PTR, RGBA8, shape=(4, 2),
                               pitches=(pitch,), hostbuf=host)
        # USE_HOST_PTR and COPY_HOST_PTR together.
        self.assertClError(s.INVALID_VALUE, cl.Image, self.ctx,
                           mf.USE_HOST_PTR | mf.COPY_HOST_PTR, RGBA8, shape=(4, 4), hostbuf=host)
        # A row pitch without a host pointer; a 1-D buffer image without a buffer; a
        # 1-D array of no layers.
        self.assertClError(s.INVALID_IMAGE_DESCRIPTOR, image_from_desc, self.ctx, mf.READ_ONLY,
                           RGBA8, mot.IMAGE2D, (4, 4), pitches=(64, 0))
        self.assertClError(s.INVALID_IMAGE_DESCRIPTOR, image_from_desc, self.ctx, mf.READ_ONLY,
                           RGBA8, mot.IMAGE1D_BUFFER, (4,))
        self.assertClError(s.INVALID_IMAGE_DESCRIPTOR, image_from_desc, self.ctx, mf.READ_ONLY,
                           RGBA8, mot.IMAGE1D_ARRAY, (4,), array_size=0)
        self.assertClError(s.INVALID_IMAGE_SIZE, image_from_desc, self.ctx, mf.READ_ONLY,
                           RGBA8, mot.IMAGE2D_ARRAY, (4, 4),
                           array_size=self.device.image_max_array_size + 1)
        # A 1-D buffer image asking for access the buffer does not give.
        ro = cl.Buffer(self.ctx, mf.READ_ONLY, 64)
        self.assertClError(s.INVALID_VALUE, cl.Image, self.ctx, mf.WRITE_ONLY, RGBA8, shape=(4,),
                           buffer=ro)

    def test_command_errors(self):
        s = cl.status_code
        img = cl.Image(self.ctx, mf.READ_WRITE, R32F, shape=(4, 4))
        out = np.zeros(64, np.float32)
        # Outside the image, and a 2-D image with a depth region.
        self.assertClError(s.INVALID_VALUE, cl.enqueue_copy, self.queue, out, img, origin=(2, 0),
                           region=(3, 1))
        self.assertClError(s.INVALID_VALUE, cl.enqueue_copy, self.queue, out, img,
                           origin=(0, 0, 0), region=(1, 1, 2))
        self.assertClError(s.INVALID_VALUE, self.read, img, (0, 0), (2, 2), out, row_pitch=4)
        # A 2-D image takes no slice pitch.
        self.assertClError(s.INVALID_VALUE, self.read, img, (0, 0), (2, 2), out, slice_pitch=64)
        # A buffer is not an image.
        buf = cl.Buffer(self.ctx, mf.READ_WRITE, 64)
        self.assertClError(s.INVALID_MEM_OBJECT, cl.enqueue_fill_image, self.queue, buf,
                           np.zeros(4, np.float32), (0, 0), (1, 1))
        # Host access flags.
        hidden = cl.Image(self.ctx, mf.READ_WRITE | mf.HOST_NO_ACCESS, R32F, shape=(4, 4))
        self.assertClError(s.INVALID_OPERATION, cl.enqueue_copy, self.queue, out, hidden,
                           origin=(0, 0), region=(1, 1))
        wo = cl.Image(self.ctx, mf.READ_WRITE | mf.HOST_WRITE_ONLY, R32F, shape=(4, 4))
        self.assertClError(s.INVALID_OPERATION, cl.enqueue_map_image, self.queue, wo,
                           cl.map_flags.READ, (0, 0), (1, 1), (1, 1), np.float32)

    # --- Samplers

    def test_samplers(self):
        am, fm = cl.addressing_mode, cl.filter_mode
        smp = cl.Sampler(self.ctx, True, am.MIRRORED_REPEAT, fm.LINEAR)
        self.assertEqual(smp.get_info(cl.sampler_info.NORMALIZED_COORDS), True)
        self.assertEqual(smp.get_info(cl.sampler_info.ADDRESSING_MODE), am.MIRRORED_REPEAT)
        self.assertEqual(smp.get_info(cl.sampler_info.FILTER_MODE), fm.LINEAR)
        self.assertEqual(smp.get_info(cl.sampler_info.CONTEXT), self.ctx)
        self.assertEqual(smp.get_info(cl.sampler_info.REFERENCE_COUNT), 1)
        # Repeat modes need normalized coordinates.
        self.assertClError(cl.status_code.INVALID_VALUE, cl.Sampler, self.ctx, False, am.REPEAT,
                           fm.NEAREST)
        self.assertClError(cl.status_code.INVALID_VALUE, cl.Sampler, self.ctx, False, 0x1234,
                           fm.NEAREST)


if __name__ == "__main__":
    unittest.main(verbosity=2)
