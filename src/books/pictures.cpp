#include "books/pictures.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace strata::books {
namespace {

constexpr size_t kMaxCaption = 300;

bool is_text(const Block& b) {
  return (b.type == BlockType::text || b.type == BlockType::table) && !b.hidden && !b.text.empty();
}

bool utf8_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

std::string tail(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  size_t from = s.size() - n;
  while (from < s.size() && utf8_continuation(s[from])) ++from;
  return s.substr(from);
}

std::string head(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  size_t to = n;
  while (to > 0 && utf8_continuation(s[to])) --to;
  return s.substr(0, to);
}

void append_text(std::string& to, const std::string& text) {
  if (!to.empty()) to += ' ';
  to += text;
  for (char& c : to)
    if (c == '\n') c = ' ';
}

}  // namespace

std::vector<Picture> join_touching(std::vector<Picture> pictures, int gap) {
  // Pairwise and repeated: cubic in the pictures of a page, so a hostile page of thousands of
  // blocks is left as it is (real pages have a handful).
  if (pictures.size() > kMaxJoinedPerPage) return pictures;
  for (bool joined = true; joined;) {
    joined = false;
    for (size_t i = 0; i < pictures.size() && !joined; ++i)
      for (size_t j = i + 1; j < pictures.size() && !joined; ++j)
        if (touches(pictures[i].box, pictures[j].box, gap)) {
          pictures[i].box = unite(pictures[i].box, pictures[j].box);
          pictures[i].rects.insert(pictures[i].rects.end(), pictures[j].rects.begin(),
                                   pictures[j].rects.end());
          pictures[i].blocks += pictures[j].blocks;
          pictures.erase(pictures.begin() + static_cast<long>(j));
          joined = true;
        }
  }
  return pictures;
}

std::string caption_for(const Box& picture, const AbbyyPage& page) {
  const int reach = std::max(60, page.height / 30);  // ~3 % of the page: a caption's gap
  const Block* best = nullptr;
  int best_distance = INT_MAX;
  for (const Block& b : page.blocks) {
    if (!is_text(b)) continue;
    if (b.picture_caption && touches(b.box, picture, reach)) return b.text;
    if (b.text.size() > kMaxCaption) continue;
    const int overlap = std::min(b.box.r, picture.r) - std::max(b.box.l, picture.l);
    if (overlap * 2 < std::min(b.box.width(), picture.width())) continue;
    const int below = b.box.t - picture.b, above = picture.t - b.box.b;
    // Below the picture first: captions sit under pictures far more often than over them.
    const int distance = below >= -kJoinGap   ? std::abs(below)
                         : above >= -kJoinGap ? std::abs(above) + 1
                                              : INT_MAX;
    if (distance <= reach && distance < best_distance) {
      best = &b;
      best_distance = distance;
    }
  }
  return best ? best->text : std::string{};
}

void PictureCollector::add(const AbbyyPage& page) {
  // The page's pictures in reading order, joined; the text between them.
  std::vector<Picture> found;
  for (const Block& b : page.blocks)
    if (b.type == BlockType::picture && !b.box.empty())
      found.push_back({page.index,
                       page.width,
                       page.height,
                       b.box,
                       b.rects.empty() ? std::vector<Box>{b.box} : b.rects,
                       1,
                       {},
                       {},
                       {}});
  found = join_touching(std::move(found));
  // Text before each picture: blocks above its top edge (then left of it) in file order.
  std::string before_first;
  std::vector<std::string> after(found.size());
  for (const Block& b : page.blocks) {
    if (!is_text(b)) continue;
    int owner = -1;  // the last picture this block comes after
    for (size_t i = 0; i < found.size(); ++i)
      if (b.box.t >= found[i].box.t) owner = static_cast<int>(i);
    append_text(owner < 0 ? before_first : after[static_cast<size_t>(owner)], b.text);
  }
  // Pictures of the previous page end their post text with this page's first text.
  for (size_t i = open_from_; i < pictures_.size(); ++i)
    pictures_[i].post_text =
        head(pictures_[i].post_text + (pictures_[i].post_text.empty() ? "" : " ") + before_first,
             kContextBytes);
  open_from_ = pictures_.size();
  std::string previous = carry_;
  append_text(previous, before_first);
  if (found.empty()) {
    carry_ = tail(previous, kContextBytes);
    return;
  }
  for (size_t i = 0; i < found.size(); ++i) {
    Picture& p = found[i];
    p.caption = caption_for(p.box, page);
    p.pre_text = tail(i == 0 ? previous : after[i - 1], kContextBytes);
    p.post_text = head(after[i], kContextBytes);
  }
  carry_ = tail(after.back(), kContextBytes);
  for (auto& p : found) pictures_.push_back(std::move(p));
  open_from_ = pictures_.size() - 1;  // only the last one reads on into the next page
}

void PictureCollector::finish() {
  open_from_ = pictures_.size();
}

}  // namespace strata::books
