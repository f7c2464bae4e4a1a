#include "sample/world.hpp"

#include <algorithm>
#include <cctype>

#include "core/timestamp.hpp"
#include "sample/assets.hpp"

namespace strata::sample {
namespace {

enum Kind { kTable90s, kNews, kBlog, kGallery, kModern, kKinds };

struct Builder {
  const Options& opt;
  World& w;
  AssetStore store;
  Rng rng;
  uint64_t concepts = 0;
  int n = 0;  // crawls

  Builder(const Options& o, World& world)
      : opt(o), w(world), store(world.assets, o.fast), rng(Rng::derive(o.seed, "world")) {}

  int dim(int lo, int hi) {
    int v = rng.range(lo, hi);
    return opt.fast ? std::max(lo, v / 64 * 64) : v;
  }

  int image_url(int site, const std::string& url, int asset, const std::string& mime = "") {
    ImageUrl u;
    u.url = url;
    u.site = site;
    u.asset.assign(static_cast<size_t>(n), asset);
    u.capture.assign(static_cast<size_t>(n), 0);
    const EncodedImage& img = w.assets[static_cast<size_t>(asset)].image;
    u.mime_reported = !mime.empty() ? mime : img.served_mime.empty() ? img.mime : img.served_mime;
    w.images.push_back(std::move(u));
    return static_cast<int>(w.images.size()) - 1;
  }

  int picture(ImageFormat f, int wd, int ht, int topic, int family = -1, int q = 85) {
    return store.add(opt.seed * 1000003 + concepts++, wd, ht, f, q, family, topic);
  }

  std::string ascii_word() {
    for (;;) {
      const std::string& s = rng.pick(filler_words(Lang::pt));
      if (std::all_of(s.begin(), s.end(), [](char c) { return c >= 'a' && c <= 'z'; })) return s;
    }
  }

  const Topic& topic_for(Lang lang) {
    const auto& all = all_topics();
    for (;;) {
      const Topic& t = all[rng.below(all.size())];
      if (t.lang == lang) return t;
    }
  }

  void make_crawls() {
    for (int c = 0; c < n; ++c) {
      int year = n == 1 ? 2010 : 1996 + c * 28 / (n - 1);
      int month = rng.range(1, 12), day = rng.range(1, 28);
      char date[32];
      std::snprintf(date, sizeof date, "%04d%02d%02d%02d0000", year, month, day, rng.range(0, 12));
      Crawl cr;
      cr.index = c;
      cr.browsertrix = year >= 2018;
      cr.start = *timestamp_to_epoch(date);
      char name[48];
      std::snprintf(name, sizeof name, "%s-%04d%02d", cr.browsertrix ? "BT" : "AWP", year, month);
      cr.collection = name;
      w.crawls.push_back(cr);
    }
  }

  Site make_site(int s) {
    Site site;
    site.kind = s % kKinds;
    site.lang = (s % 7 == 6) ? Lang::en : Lang::pt;
    std::string word = ascii_word();
    const char* tlds[] = {".pt", ".com.pt", ".com", ".org", ".pt"};
    site.host = (site.kind == kTable90s ? "www." : (s % 2 ? "www." : "")) + word +
                std::to_string(s) + tlds[s % 5];
    site.name = capitalise(word) + " " + std::to_string(s);
    int last = n - 1;
    switch (site.kind) {
      case kTable90s:
        site.first_crawl = 0;
        site.last_crawl = std::max(1, last / 2);
        break;
      case kModern:
        site.first_crawl = last / 2;
        site.last_crawl = last;
        break;
      default:
        site.first_crawl =
            static_cast<int>(rng.below(static_cast<uint64_t>(std::max(1, last / 3))));
        site.last_crawl = last;
    }
    site.last_crawl = std::min(site.last_crawl, last);
    if (site.first_crawl == site.last_crawl && site.first_crawl > 0) --site.first_crawl;
    return site;
  }

  int year_of(int crawl) const {
    return std::stoi(timestamp_from_epoch(w.crawls[static_cast<size_t>(crawl)].start).substr(0, 4));
  }

  void build();
  void build_site(int s, int pages_per_site);
  void add_figure(Page& p, int s, const std::string& url, int asset);
  int other_site(int site);
  void add_edge_cases(Page& p, int s, const std::string& root);
  int new_page(int s, const std::string& path, const Topic& topic);
  void add_content(Page& p, int s, Structure st, const Topic& topic, int count);
  Slot content_slot(Page& p, int s, Structure st, const Topic& topic, int index);
  void plan_captures();
  void add_mirrors();
};

std::string slug(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c >= 'a' && c <= 'z')
      out += c;
    else if (c == ' ' && !out.empty() && out.back() != '-')
      out += '-';
  }
  return out.empty() ? std::string("x") : out;
}

std::string site_root(const Site& s, int year) {
  return (year >= 2016 && s.kind == kModern ? "https://" : "http://") + s.host;
}

}  // namespace

bool apply_scale(const std::string& scale, Options& o) {
  if (scale == "tiny")
    o.images = 40;
  else if (scale == "demo")
    o.images = 3000;
  else if (scale == "bench")
    o.images = 1000000;
  else if (!scale.empty() && std::all_of(scale.begin(), scale.end(), ::isdigit))
    o.images = std::stoll(scale);
  else
    return false;
  o.fast = o.images >= 100000;
  return true;
}

int Builder::new_page(int s, const std::string& path, const Topic& topic) {
  const Site& site = w.sites[static_cast<size_t>(s)];
  Page p;
  p.site = s;
  p.kind = site.kind;
  p.lang = site.lang;
  p.url = site_root(site, year_of(site.first_crawl)) + path;
  std::string t1 = capitalise(topical(rng, topic, 2)) + " - " + site.name;
  std::string t2 = rng.chance(0.3) ? capitalise(filler(rng, site.lang, 3)) + " - " + site.name : t1;
  int change = rng.range(site.first_crawl, site.last_crawl);
  for (int c = 0; c < n; ++c) p.title.push_back(c < change ? t1 : t2);
  p.time.assign(static_cast<size_t>(n), 0);
  p.h1 = capitalise(filler(rng, site.lang, 3));
  p.footer = capitalise(filler(rng, site.lang, 4));
  if (site.kind == kTable90s) {
    p.charset = rng.chance(0.5) ? Charset::latin1_undeclared : Charset::latin1;
  } else if (site.kind == kBlog && rng.chance(0.3)) {
    p.charset = Charset::double_utf8;
  } else if (rng.chance(0.1)) {
    p.charset = Charset::utf8_declared_latin1;
  }
  w.pages.push_back(std::move(p));
  int id = static_cast<int>(w.pages.size()) - 1;
  w.sites[static_cast<size_t>(s)].pages.push_back(id);
  return id;
}

Slot Builder::content_slot(Page& p, int s, Structure st, const Topic& topic, int index) {
  Site& site = w.sites[static_cast<size_t>(s)];
  Slot slot;
  slot.structure = st;
  std::string dir = p.url.substr(0, p.url.rfind('/') + 1);
  std::string base = site_root(site, year_of(site.first_crawl));
  int year = year_of(site.first_crawl);
  ImageFormat f = site.kind == kTable90s ? (rng.chance(0.5) ? ImageFormat::gif : ImageFormat::jpeg)
                  : year >= 2013 && rng.chance(0.3) ? ImageFormat::webp
                  : rng.chance(0.15)                ? ImageFormat::png
                                                    : ImageFormat::jpeg;
  bool relevant = rng.chance(0.6);
  int t = relevant ? topic.id : -1;
  std::string name = slug(filler(rng, site.lang, 2)) + "-" + std::to_string(index);
  std::string alt = relevant ? topical(rng, topic, 1) : filler(rng, site.lang, 2);
  slot.alt.assign(static_cast<size_t>(n), alt);
  if (rng.chance(0.15)) {  // the alt text was edited in a later crawl
    int change = rng.range(site.first_crawl, site.last_crawl);
    std::string alt2 = filler(rng, site.lang, 3);
    for (int c = change; c < n; ++c) slot.alt[static_cast<size_t>(c)] = alt2;
  }
  if (rng.chance(0.2)) slot.title = capitalise(filler(rng, site.lang, 2));
  slot.caption =
      capitalise(relevant && rng.chance(0.5) ? topical(rng, topic, 4) : filler(rng, site.lang, 5));
  if (st == Structure::thumb || st == Structure::gallery) {
    int fam = store.new_family();
    uint64_t look = opt.seed * 1000003 + concepts++;
    int full = store.add(look, dim(600, 1200), dim(400, 900), ImageFormat::jpeg, 85, fam, t);
    int thumb = store.add(look, dim(64, 160), dim(64, 120), ImageFormat::jpeg, 70, fam, t);
    slot.image = image_url(s, dir + "thumbs/" + name + "_t.jpg", thumb);
    slot.full = image_url(s, base + "/fotos/" + name + ".jpg", full);
    return slot;
  }
  int asset = picture(f, dim(120, 900), dim(90, 700), t);
  std::string host = (site.kind == kNews && rng.chance(0.3)) ? "http://img." + site.host : base;
  std::string path = site.kind == kTable90s ? "/IMAGES/" + name + "." + ext_of(f)
                     : site.kind == kNews
                         ? "/imagens/" + std::to_string(year) + "/" + name + "." + ext_of(f)
                         : "/media/" + name + "." + ext_of(f);
  if (site.kind == kNews && rng.chance(0.1))
    path = "/imagens.aspx?id=" + std::to_string(concepts) + "&type=JPG";
  slot.image = image_url(s, host + path, asset);
  if (st == Structure::blog_flat) slot.heading = capitalise(filler(rng, site.lang, 3));
  if (st == Structure::picture)
    slot.srcset =
        base + "/media/" + name + "-800.avif 1x, " + base + "/media/" + name + "-1600.avif 2x";
  if (st == Structure::link) slot.caption = capitalise(filler(rng, site.lang, 3));
  if (st == Structure::css) slot.caption.clear(), slot.alt.assign(static_cast<size_t>(n), "");
  return slot;
}

void Builder::add_content(Page& p, int s, Structure st, const Topic& topic, int count) {
  for (int i = 0; i < count; ++i) {
    int index = static_cast<int>(p.slots.size());
    Slot slot = content_slot(p, s, st, topic, index);
    p.slots.push_back(std::move(slot));
  }
}

// A figure showing a given file (no topic, so its capture is never left out or changed).
void Builder::add_figure(Page& p, int s, const std::string& url, int asset) {
  Slot slot;
  slot.structure = Structure::figure;
  slot.image = image_url(s, url, asset);
  slot.alt.assign(static_cast<size_t>(n), filler(rng, p.lang, 2));
  slot.caption = capitalise(filler(rng, p.lang, 5));
  p.slots.push_back(std::move(slot));
}

// Cases every sample holds once per site of the kind: on news home pages a GIF declaring
// 16000x16000 px (over the 15000x15000 px limit: extraction drops it as too large); on modern
// home pages a 64x64 ICO (sniffed image/x-icon, served as image/vnd.microsoft.icon).
void Builder::add_edge_cases(Page& p, int s, const std::string& root) {
  const Site& site = w.sites[static_cast<size_t>(s)];
  if (site.kind == kNews) {
    EncodedImage huge{
        encode_gif_on_screen(render(make_concept(opt.seed + 15000), 64, 64), 16000, 16000),
        "image/gif",
        "gif",
        16000,
        16000,
        ""};
    add_figure(p, s, root + "/imagens/mapa-gigante.gif", store.add_encoded(std::move(huge)));
  }
  if (site.kind == kModern)
    add_figure(p, s, root + "/img/touch-icon.ico", picture(ImageFormat::ico, 64, 64, -1));
}

void Builder::build_site(int s, int pages_per_site) {
  Site& site = w.sites[static_cast<size_t>(s)];
  int year = year_of(site.first_crawl);
  std::string root = site_root(site, year);
  // The logo: on every page of the site, the same URL (SVG on modern sites).
  ImageFormat lf = site.kind == kModern     ? ImageFormat::svg
                   : site.kind == kTable90s ? ImageFormat::gif_animated
                                            : ImageFormat::png;
  int logo_url =
      image_url(s, root + "/img/logo." + ext_of(lf), picture(lf, dim(120, 240), dim(50, 90), -1));
  int spacer =
      image_url(s, root + "/img/spacer.gif",
                store.add_encoded(EncodedImage{encode_gif({solid(1, 1, Rgb{255, 255, 255})}),
                                               "image/gif", "gif", 1, 1, ""}));
  // Captured but never referenced: the favicon and an unused upload.
  site.orphans.push_back(
      image_url(s, root + "/favicon.ico", picture(ImageFormat::ico, 32, 32, -1)));
  site.orphans.push_back(image_url(s, root + "/media/unused-" + std::to_string(s) + ".png",
                                   picture(ImageFormat::png, 200, 150, -1)));
  for (int pi = 0; pi < pages_per_site; ++pi) {
    const Topic& topic = topic_for(site.lang);
    std::string path = pi == 0                  ? "/"
                       : site.kind == kTable90s ? "/PAGINAS/pag" + std::to_string(pi) + ".htm"
                       : site.kind == kNews     ? "/noticias/" + std::to_string(year) + "/" +
                                                  slug(topic.query()) + ".html"
                       : site.kind == kBlog ? "/blog/?p=" + std::to_string(pi * 7)
                                            : "/galeria/" + std::to_string(pi) + "/index.html";
    int id = new_page(s, path, topic);
    Page& p = w.pages[static_cast<size_t>(id)];
    Slot logo;
    logo.structure = Structure::logo;
    logo.image = logo_url;
    logo.alt.assign(static_cast<size_t>(n), site.name);
    logo.caption = site.name;
    p.slots.push_back(logo);
    int k = opt.images <= 100 ? 2 : rng.range(2, 6);
    switch (site.kind) {
      case kTable90s: {
        Slot sp;
        sp.structure = Structure::spacer;
        sp.image = spacer;
        p.slots.push_back(sp);
        add_content(p, s, Structure::table_row, topic, k);
        add_content(p, s, Structure::link, topic, 1);
        break;
      }
      case kNews:
        add_content(p, s, Structure::figure, topic, k);
        add_content(p, s, Structure::div_p, topic, 1);
        add_content(p, s, Structure::css, topic, 1);
        break;
      case kBlog:
        add_content(p, s, Structure::blog_flat, topic, std::max(3, k));
        break;
      case kGallery:
        add_content(p, s, pi % 2 ? Structure::gallery : Structure::thumb, topic,
                    pi % 2 ? k : std::max(10, opt.images <= 100 ? 10 : rng.range(10, 300)));
        break;
      default:
        add_content(p, s, Structure::picture, topic, k);
        add_content(p, s, Structure::figure, topic, 1);
        add_content(p, s, Structure::link, topic, 1);
        add_content(p, s, Structure::css, topic, 1);
        if (pi % 2) p.base_href = root + "/static/";
        break;
    }
    if (pi == 0) add_edge_cases(p, s, root);
    Slot icon;
    icon.structure = Structure::inline_icon;
    icon.alt.assign(static_cast<size_t>(n), "");
    if (site.kind != kTable90s) p.slots.push_back(icon);
  }
}

// A site other than `site` whose home page can take one more captioned image: not a gallery,
// whose thumbnail grid would then hold it and change the grid's caption. -1 if none.
int Builder::other_site(int site) {
  size_t n_sites = w.sites.size();
  size_t start = rng.below(n_sites - 1);
  for (size_t k = 0; k + 1 < n_sites; ++k) {
    size_t other = (static_cast<size_t>(site) + 1 + (start + k) % (n_sites - 1)) % n_sites;
    if (w.sites[other].kind != kGallery) return static_cast<int>(other);
  }
  return -1;
}

namespace {

// Pictures copied to other sites are ordinary content (not the huge or ICO edge cases).
bool shareable(const Asset& a) {
  return a.topic >= 0 && a.image.width <= 2000 && a.image.height <= 2000;
}

}  // namespace

void Builder::build() {
  n = std::clamp(opt.crawls > 0        ? opt.crawls
                 : opt.images <= 100   ? 3
                 : opt.images <= 10000 ? 8
                                       : 12,
                 1, 60);
  make_crawls();
  int sites = opt.sites > 0       ? opt.sites
              : opt.images <= 100 ? 5
                                  : static_cast<int>(std::max<int64_t>(5, opt.images / 70));
  for (int s = 0; s < sites; ++s) w.sites.push_back(make_site(s));
  int64_t per_site = std::max<int64_t>(1, opt.images / sites);
  for (int s = 0; s < sites; ++s) {
    int kind = w.sites[static_cast<size_t>(s)].kind;
    int per_page = kind == kGallery ? 40 : 7;
    build_site(s, static_cast<int>(std::clamp<int64_t>(per_site / per_page, 1, 500)));
  }
  // Shared pictures: the same bytes under a URL of another site, and re-encoded copies.
  int n_shared = std::max(2, static_cast<int>(w.images.size() / 40));
  for (int i = 0; i < n_shared && w.sites.size() > 1; ++i) {
    Page& p = w.pages[rng.below(w.pages.size())];
    for (Slot& slot : p.slots) {
      if (slot.structure != Structure::figure && slot.structure != Structure::table_row) continue;
      const ImageUrl& src = w.images[static_cast<size_t>(slot.image)];
      if (!shareable(w.assets[static_cast<size_t>(src.asset[0])])) continue;
      int other = other_site(p.site);
      if (other < 0) break;
      std::string url = "http://" + w.sites[static_cast<size_t>(other)].host + "/partilha/" +
                        std::to_string(i) + (i % 2 ? ".jpg" : "-copia.jpg");
      int asset = src.asset[0];
      if (i % 2) {  // re-encoded, resized near-duplicate
        Asset& a = w.assets[static_cast<size_t>(asset)];
        if (a.family < 0) a.family = store.new_family();
        int fam = a.family, topic = a.topic;
        uint64_t look = a.look_seed;
        int wd = std::max(60, a.image.width * 3 / 4), ht = std::max(60, a.image.height * 3 / 4);
        asset = store.add(look, wd, ht, ImageFormat::jpeg, 60, fam, topic);
      }
      Page& q = w.pages[static_cast<size_t>(w.sites[static_cast<size_t>(other)].pages[0])];
      Slot s2 = slot;
      s2.image = image_url(other, url, asset, "image/jpeg");
      s2.structure = Structure::div_p;
      s2.caption = capitalise(filler(rng, q.lang, 4));
      q.slots.push_back(s2);
      break;
    }
  }
  if (opt.mirrors > 0) add_mirrors();
  plan_captures();
}

// Articles and their copies (Options::mirrors), from a generator of their own so that the
// rest of the world is planned as without them. Article i on a site, with one captioned
// picture of that site, and one copy by i % 4: 0 an exact mirror on the mirror host, 1 a
// reprint on another site with one or two words changed, 2 a print version on the same site
// (its heading prefixed), 3 a rewrite on another site (40 % of the words
// replaced: not a near-duplicate, though it shows the same picture).
void Builder::add_mirrors() {
  Rng r = Rng::derive(opt.seed, "mirrors");
  const int original_sites = static_cast<int>(w.sites.size());
  Site mirror;
  mirror.kind = kNews;
  mirror.host = "www.espelho-arquivo.pt";
  mirror.name = "Espelho";
  mirror.first_crawl = 0;
  mirror.last_crawl = n - 1;
  w.sites.push_back(mirror);
  const int mirror_site = original_sites;
  auto add_page = [&](Page p) {
    p.time.assign(static_cast<size_t>(n), 0);
    int id = static_cast<int>(w.pages.size());
    w.sites[static_cast<size_t>(p.site)].pages.push_back(id);
    w.pages.push_back(std::move(p));
  };
  for (int i = 0; i < opt.mirrors; ++i) {
    const int s = static_cast<int>(r.below(static_cast<uint64_t>(original_sites)));
    const Site& site = w.sites[static_cast<size_t>(s)];
    int image = -1;  // a captioned picture of the site's
    for (int pid : site.pages)
      for (const Slot& slot : w.pages[static_cast<size_t>(pid)].slots)
        if (image < 0 && slot.image >= 0 &&
            (slot.structure == Structure::figure || slot.structure == Structure::div_p))
          image = slot.image;
    Page a;
    a.url = "http://" + site.host + "/artigos/artigo-" + std::to_string(i) + ".html";
    a.site = s;
    a.kind = site.kind;
    a.lang = site.lang;
    a.h1 = capitalise(filler(r, site.lang, 5));
    a.footer = capitalise(filler(r, site.lang, 4));
    a.article = capitalise(filler(r, site.lang, r.range(120, 300))) + ".";
    a.title.assign(static_cast<size_t>(n), a.h1 + " - " + site.name);
    if (image >= 0) {
      Slot slot;
      slot.structure = Structure::figure;
      slot.image = image;
      slot.alt.assign(static_cast<size_t>(n), filler(r, site.lang, 2));
      slot.caption = capitalise(filler(r, site.lang, 6));
      a.slots.push_back(slot);
    }
    Page copy = a;
    int other =
        original_sites > 1
            ? (s + 1 + static_cast<int>(r.below(static_cast<uint64_t>(original_sites - 1)))) %
                  original_sites
            : s;
    switch (i % 4) {
      case 0:
        copy.site = mirror_site;
        copy.url = "http://" + mirror.host + "/" + site.host + "/artigos/artigo-" +
                   std::to_string(i) + ".html";
        break;
      case 1: {
        copy.site = other;
        copy.url = "http://" + w.sites[static_cast<size_t>(other)].host + "/reproducao/" +
                   std::to_string(i) + ".html";
        std::vector<std::string> words;
        for (size_t at = 0; at < a.article.size();) {
          size_t end = std::min(a.article.find(' ', at), a.article.size());
          words.push_back(a.article.substr(at, end - at));
          at = end + 1;
        }
        int edits = r.range(1, 2);
        for (int e = 0; e < edits; ++e)
          words[r.below(words.size())] = capitalise(filler(r, site.lang, 1));
        copy.article.clear();
        for (const auto& word : words) copy.article += (copy.article.empty() ? "" : " ") + word;
        break;
      }
      case 2:
        copy.url = "http://" + site.host + "/imprimir/artigo-" + std::to_string(i) + ".html";
        copy.h1 = "Versão para imprimir: " + a.h1;
        break;
      default: {
        copy.site = other;
        copy.url = "http://" + w.sites[static_cast<size_t>(other)].host + "/reescrita/" +
                   std::to_string(i) + ".html";
        std::string rewritten;
        for (size_t at = 0; at < a.article.size();) {
          size_t end = std::min(a.article.find(' ', at), a.article.size());
          std::string word = a.article.substr(at, end - at);
          if (r.chance(0.4)) word = filler(r, site.lang, 1);
          rewritten += (rewritten.empty() ? "" : " ") + word;
          at = end + 1;
        }
        copy.article = rewritten;
        copy.h1 = capitalise(filler(r, site.lang, 5));
      }
    }
    add_page(std::move(a));
    add_page(std::move(copy));
  }
}

void Builder::plan_captures() {
  // Per-URL fates: changed content, never captured, captured a crawl late, other WARC file.
  for (ImageUrl& u : w.images) {
    const Site& site = w.sites[static_cast<size_t>(u.site)];
    const Asset& a = w.assets[static_cast<size_t>(u.asset[0])];
    bool content = a.image.width >= 60 && a.topic >= 0;
    u.late = rng.chance(0.1);
    if (content && rng.chance(0.05))
      u.never = true;
    else if (content && rng.chance(0.05))
      u.skip_first = true;
    if (content && rng.chance(0.06) && site.last_crawl > site.first_crawl) {
      int change = rng.range(site.first_crawl + 1, site.last_crawl);
      const EncodedImage& old = a.image;
      int fresh = picture(ImageFormat::jpeg, old.width, old.height, -1);
      for (int c = change; c < n; ++c) u.asset[static_cast<size_t>(c)] = fresh;
    }
  }
  std::vector<char> seen(w.images.size(), 0);
  for (int c = 0; c < n; ++c) {
    for (size_t s = 0; s < w.sites.size(); ++s) {
      const Site& site = w.sites[s];
      if (c < site.first_crawl || c > site.last_crawl) continue;
      int64_t clock = w.crawls[static_cast<size_t>(c)].start + static_cast<int64_t>(s) * 600;
      auto capture = [&](int id) {
        if (id < 0) return;
        ImageUrl& u = w.images[static_cast<size_t>(id)];
        if (u.never || u.capture[static_cast<size_t>(c)] != 0) return;
        if (u.skip_first && !seen[static_cast<size_t>(id)]) {
          seen[static_cast<size_t>(id)] = 1;
          return;
        }
        seen[static_cast<size_t>(id)] = 1;
        u.capture[static_cast<size_t>(c)] = clock++;
      };
      for (int pid : site.pages) {
        Page& p = w.pages[static_cast<size_t>(pid)];
        p.time[static_cast<size_t>(c)] = clock++;
        for (const Slot& slot : p.slots) {
          capture(slot.image);
          capture(slot.full);
        }
      }
      for (int id : site.orphans) capture(id);
    }
  }
}

World build_world(const Options& options) {
  World w;
  w.options = options;
  Builder b(options, w);
  b.build();
  return w;
}

}  // namespace strata::sample
