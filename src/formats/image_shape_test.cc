// Image shapes as text and back, and their packed pixels (sizes worked by hand:
// bytes per pixel x width x height x depth x layers).
#include "src/formats/image_shape.h"

#include <gtest/gtest.h>

#include "spirv/error.h"
#include "src/exec/image_format.h"

namespace spvsim::formats {
namespace {

struct Case {
  const char* head;
  const char* shape;
  ImageType type;
  uint64_t width, height, depth, layers, bytes;
};

TEST(ImageShape, EveryTypeRoundTrips) {
  const Case cases[] = {
      {"image1d", "R,FLOAT[5]", ImageType::Image1D, 5, 1, 1, 1, 20},
      {"image1d_buffer", "RGBA,UNORM_INT8[3]", ImageType::Image1DBuffer, 3, 1, 1, 1, 12},
      {"image1d_array", "RGBA,FLOAT[2,3]", ImageType::Image1DArray, 2, 1, 1, 3, 96},
      {"image2d", "RGBA,UNORM_INT8[4,2]", ImageType::Image2D, 4, 2, 1, 1, 32},
      {"image2d_array", "R,UNSIGNED_INT8[3,2,4]", ImageType::Image2DArray, 3, 2, 1, 4, 24},
      {"image3d", "R,FLOAT[2,3,4]", ImageType::Image3D, 2, 3, 4, 1, 96},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.head) + ":" + c.shape);
    ASSERT_TRUE(isImageHead(c.head));
    const ImageDesc d = parseImageShape(c.head, c.shape);
    EXPECT_EQ(d.type, c.type);
    EXPECT_EQ(d.width, c.width);
    EXPECT_EQ(d.height, c.height);
    EXPECT_EQ(d.depth, c.depth);
    EXPECT_EQ(d.arraySize, c.layers);
    EXPECT_EQ(packedImageBytes(d), c.bytes);
    EXPECT_EQ(d.rowPitch, c.width * imagefmt::bytesPerPixel(d.format));  // tight
    EXPECT_EQ(d.slicePitch, d.rowPitch * c.height);
    EXPECT_EQ(imageShapeText(d, ':'), std::string(c.head) + ":" + c.shape);
    EXPECT_EQ(imageShapeText(d, ' '), std::string(c.head) + " " + c.shape);
  }
  EXPECT_FALSE(isImageHead("image4d"));
  EXPECT_FALSE(isImageHead("sampler"));
}

TEST(ImageShape, Errors) {
  auto message = [](const char* head, const char* shape) -> std::string {
    try {
      parseImageShape(head, shape);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), DiagnosticKind::InvalidArgument);
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message("image2d", "RGBA,UNORM_INT8[4]"), "image2d takes [W,H], not [4]");
  EXPECT_EQ(message("image2d", "RGBA,UNORM_INT8[4,0]"),
            "image extent '0' is not a positive number");
  EXPECT_EQ(message("image9d", "R,FLOAT[1]"), "unknown image type 'image9d'");
  EXPECT_EQ(message("image2d", "RGBA,UNORM_INT8[4,2] x"), "unexpected 'x' after ']'");
  EXPECT_EQ(message("image3d", "R,FLOAT[65536,65536,65536]"),
            "the image is larger than 4294967296 bytes");
}

TEST(ImageShape, PackedPixelsDropThePitchPadding) {
  // A 2x2 image of R,UNSIGNED_INT8 in two slices (a 2-D array), rows 4 bytes apart and
  // slices 12 apart, as an application's CL_MEM_USE_HOST_PTR memory may be.
  uint8_t memory[24] = {1, 2, 0xee, 0xee, 3, 4, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
                        5, 6, 0xee, 0xee, 7, 8, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee};
  ImageDesc d = parseImageShape("image2d_array", "R,UNSIGNED_INT8[2,2,2]");
  d.rowPitch = 4;
  d.slicePitch = 12;
  d.data = memory;
  d.bytes = sizeof memory;
  EXPECT_EQ(packedPixels(d), (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(packedImageBytes(d), 8u);
}

}  // namespace
}  // namespace spvsim::formats
