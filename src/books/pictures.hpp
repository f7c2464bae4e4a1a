#pragma once
// Strata's own reading of an Abbyy file (the default mode): the Picture blocks of each page,
// pictures Abbyy split in two joined again when they touch, a caption from a caption-like
// text block beside the picture, and the text before and after it bounded to the same or the
// neighbouring page (and cut at the previous / next picture), at most 1,000 bytes each, cut
// on a UTF-8 boundary. Only one page is held at a time.
#include <string>
#include <vector>

#include "books/abbyy.hpp"
#include "books/box.hpp"

namespace strata::books {

struct Picture {
  int page = 0;  // 0-based Abbyy page (= scan leaf position)
  int page_width = 0, page_height = 0;
  Box box;
  std::vector<Box> rects;
  int blocks = 1;  // Picture blocks joined into this one
  std::string caption, pre_text, post_text;
};

inline constexpr size_t kContextBytes = 1000;
inline constexpr int kJoinGap = 3;  // pixels between two blocks that still "touch"
inline constexpr size_t kMaxJoinedPerPage = 256;

class PictureCollector {
 public:
  void add(const AbbyyPage& page);
  void finish();  // the last page's pictures get their post text
  std::vector<Picture>& pictures() { return pictures_; }

 private:
  std::vector<Picture> pictures_;
  size_t open_from_ = 0;  // pictures of the previous page still collecting post text
  std::string carry_;     // the previous page's text after its last picture
};

// Picture blocks of one page, those that touch joined (with their rectangles).
std::vector<Picture> join_touching(std::vector<Picture> pictures, int gap = kJoinGap);

// The caption-like text block nearest above or below `picture`, or its FR10 pictureCaption.
std::string caption_for(const Box& picture, const AbbyyPage& page);

}  // namespace strata::books
