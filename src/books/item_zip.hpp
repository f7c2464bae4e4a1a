#pragma once
// An item packed as one ZIP (`ID.zip`, laid out as the item's folder, its files at the top or
// under one folder): its files unpacked, flat, into SCRATCH/ID, which extract_item then reads
// as an item folder and removes. The page images ZIP inside is copied whole (its pages are
// still read in place from it), so the scratch space is about the item's size.
//
// Failure contract: unpack_item_zip throws ItemError (file, member) for a ZIP libzip cannot
// open, a member that cannot be read or a file that cannot be written. Member paths never
// leave SCRATCH/ID: only their last component is used.
#include <filesystem>

namespace strata::books {

// True for `*.zip` files that are no item's page-image ZIP (`_jp2.zip`, `_jpg.zip`, `_tif.zip`).
bool is_item_zip(const std::filesystem::path& path);

// Unpacks `zip` into scratch/ID (ID = the ZIP's name without `.zip`) and returns that folder.
std::filesystem::path unpack_item_zip(const std::filesystem::path& zip,
                                      const std::filesystem::path& scratch);

}  // namespace strata::books
