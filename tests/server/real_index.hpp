#pragma once
// Indexes of real archives built the way `strata index` does, for the server tests.
#include <gtest/gtest.h>

#include <filesystem>

#include "extract/stage.hpp"
#include "index/index_documents.hpp"
#include "index/moderation.hpp"
#include "merge/folder.hpp"
#include "testing/shared_data.hpp"

namespace strata::server::testing {

namespace fs = std::filesystem;

// Extraction and merge of `archive` in `work`; the merged documents.jsonl.
inline fs::path merged_documents(const fs::path& archive, const fs::path& work) {
  extract::ExtractOptions xopts;
  xopts.collection = "books";
  fs::create_directories(work / "extract");
  auto extracted = extract::run_extraction({archive}, xopts, work / "extract", 1, {}, nullptr);
  EXPECT_EQ(extracted.unusable, 0u);
  auto merged = merge::merge_folder(work / "extract", work / "docs", {}, nullptr);
  EXPECT_EQ(merged.error, "");
  return merged.documents;
}

// Indexes `documents` into work/index with what work/index holds of analysis and blocks.
inline fs::path index_documents(const fs::path& documents, const fs::path& work) {
  index::IndexOptions iopts;
  iopts.index_dir = work / "index";
  iopts.collection = "books";
  iopts.inputs = {documents};
  iopts.moderate = index::moderation_of(iopts.index_dir);
  index::index_documents(iopts);
  return iopts.index_dir;
}

// The index of aut's example.warc.gz (the 2008 archive.org crawl of ../shared/data), in work.
inline fs::path archive_org_2008_index(const fs::path& work) {
  const fs::path warc = strata::testing::shared_data(
      "archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz");
  return index_documents(merged_documents(warc, work), work);
}

}  // namespace strata::server::testing
