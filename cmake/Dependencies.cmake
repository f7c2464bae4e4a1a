# Every third-party library comes from Debian (see scripts/setup). Each is exposed as an
# imported target named dep::<name> so modules link by name without repeating discovery.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
find_package(OpenSSL REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(nlohmann_json CONFIG REQUIRED)
find_package(ICU REQUIRED COMPONENTS uc i18n)
find_package(SQLite3 REQUIRED)

function(strata_pkg_dep name module)
  pkg_check_modules(${name} REQUIRED IMPORTED_TARGET ${module})
  add_library(dep::${name} ALIAS PkgConfig::${name})
endfunction()

strata_pkg_dep(zstd libzstd)
strata_pkg_dep(lz4 liblz4)
strata_pkg_dep(brotli libbrotlidec)
strata_pkg_dep(brotlienc libbrotlienc)
strata_pkg_dep(zip libzip)
strata_pkg_dep(gumbo gumbo)
strata_pkg_dep(uchardet uchardet)
strata_pkg_dep(idn2 libidn2)
strata_pkg_dep(xapian xapian-core)
strata_pkg_dep(png libpng)
strata_pkg_dep(jpeg libjpeg)
strata_pkg_dep(webp libwebp)
strata_pkg_dep(webpmux libwebpmux)
strata_pkg_dep(isal libisal)
strata_pkg_dep(deflate libdeflate)
strata_pkg_dep(xxhash libxxhash)
strata_pkg_dep(simdjson simdjson)
strata_pkg_dep(expat expat)
strata_pkg_dep(openjp2 libopenjp2)
strata_pkg_dep(tiff libtiff-4)
strata_pkg_dep(curl libcurl)
strata_pkg_dep(lmdb lmdb)

# Debian's cpp-httplib is built in split mode: the header needs libcpp-httplib.so. Only the
# tests' and benchmarks' HTTP clients use it; the server is Boost.Beast (header-only).
strata_pkg_dep(httplib cpp-httplib)
find_package(Boost 1.74 REQUIRED)
add_library(dep::beast INTERFACE IMPORTED)
target_link_libraries(dep::beast INTERFACE Boost::headers Threads::Threads)
strata_pkg_dep(vips vips-cpp)

# Debian ships OpenCV's headers and libraries per module (libopencv-dnn-dev) but the
# pkg-config file only with the libopencv-dev meta package: look for the files directly.
find_path(OPENCV_DNN_INCLUDE opencv2/dnn.hpp PATH_SUFFIXES opencv4 REQUIRED)
find_library(OPENCV_CORE_LIB opencv_core REQUIRED)
find_library(OPENCV_DNN_LIB opencv_dnn REQUIRED)
add_library(dep::opencv_dnn INTERFACE IMPORTED)
target_link_libraries(dep::opencv_dnn INTERFACE ${OPENCV_DNN_LIB} ${OPENCV_CORE_LIB})
target_include_directories(dep::opencv_dnn SYSTEM INTERFACE ${OPENCV_DNN_INCLUDE})

# XNNPACK (the NSFW network's default backend) ships no pkg-config or CMake file.
find_path(XNNPACK_INCLUDE xnnpack.h REQUIRED)
find_library(XNNPACK_LIB XNNPACK REQUIRED)
add_library(dep::xnnpack INTERFACE IMPORTED)
target_link_libraries(dep::xnnpack INTERFACE ${XNNPACK_LIB})
target_include_directories(dep::xnnpack SYSTEM INTERFACE ${XNNPACK_INCLUDE})

# GLPK (exact covers of large components, src/cover/ilp.cpp) ships no pkg-config file.
find_path(GLPK_INCLUDE glpk.h REQUIRED)
find_library(GLPK_LIB glpk REQUIRED)
add_library(dep::glpk INTERFACE IMPORTED)
target_link_libraries(dep::glpk INTERFACE ${GLPK_LIB})
target_include_directories(dep::glpk SYSTEM INTERFACE ${GLPK_INCLUDE})

# giflib ships no pkg-config file on Debian 12.
find_library(GIF_LIBRARY gif REQUIRED)
add_library(dep::gif INTERFACE IMPORTED)
target_link_libraries(dep::gif INTERFACE ${GIF_LIBRARY})

add_library(dep::zlib ALIAS ZLIB::ZLIB)
add_library(dep::crypto ALIAS OpenSSL::Crypto)
add_library(dep::json ALIAS nlohmann_json::nlohmann_json)
add_library(dep::cli11 ALIAS CLI11::CLI11)
add_library(dep::icu INTERFACE IMPORTED)
target_link_libraries(dep::icu INTERFACE ICU::uc ICU::i18n)
add_library(dep::sqlite ALIAS SQLite::SQLite3)

if(STRATA_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
endif()
if(STRATA_BENCH)
  find_package(benchmark REQUIRED)
endif()
