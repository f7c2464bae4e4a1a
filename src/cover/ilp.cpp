#include "cover/ilp.hpp"

#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>

namespace strata::cover {
namespace {

// GLPK keeps its environment per thread only when built for it; serialise to be safe.
std::mutex glpk_lock;

struct Incumbent {
  const std::vector<uint32_t>* chosen;
  size_t columns;
  bool given = false;
};

// Offers the greedy cover as the first integer solution, so that the search prunes from the
// start with its size as the bound to beat.
void offer_incumbent(glp_tree* tree, void* info) {
  auto* incumbent = static_cast<Incumbent*>(info);
  if (glp_ios_reason(tree) != GLP_IHEUR || incumbent->given) return;
  incumbent->given = true;
  std::vector<double> x(incumbent->columns + 1, 0.0);
  for (uint32_t b : *incumbent->chosen) x[b + 1] = 1.0;
  glp_ios_heur_sol(tree, x.data());
}

}  // namespace

IlpCover ilp_cover(const std::vector<std::vector<uint32_t>>& covered_by,
                   const std::vector<uint32_t>& incumbent, int time_limit_ms) {
  IlpCover out;
  uint64_t nonzeros = 0;
  for (const auto& list : covered_by) nonzeros += list.size();
  if (covered_by.empty() || nonzeros > kIlpMaxNonzeros || time_limit_ms <= 0) return out;
  const int n = static_cast<int>(covered_by.size());
  std::vector<int> rows(1), columns(1);
  std::vector<double> values(1);
  for (int a = 0; a < n; ++a)
    for (uint32_t b : covered_by[static_cast<size_t>(a)]) {
      rows.push_back(a + 1);
      columns.push_back(static_cast<int>(b) + 1);
      values.push_back(1.0);
    }

  std::lock_guard guard(glpk_lock);
  glp_term_out(GLP_OFF);
  std::unique_ptr<glp_prob, void (*)(glp_prob*)> program(glp_create_prob(), glp_delete_prob);
  glp_prob* p = program.get();
  glp_set_obj_dir(p, GLP_MIN);
  glp_add_rows(p, n);
  glp_add_cols(p, n);
  for (int k = 1; k <= n; ++k) {
    glp_set_row_bnds(p, k, GLP_LO, 1.0, 0.0);  // item k is covered at least once
    glp_set_col_kind(p, k, GLP_BV);            // item k kept or not
    glp_set_obj_coef(p, k, 1.0);
  }
  glp_load_matrix(p, static_cast<int>(rows.size() - 1), rows.data(), columns.data(), values.data());
  out.attempted = true;
  // The relaxation first, so that the search runs on the program as given (GLPK's MIP
  // presolver would renumber the columns the incumbent is given in).
  const auto start_time = std::chrono::steady_clock::now();
  glp_smcp simplex;
  glp_init_smcp(&simplex);
  simplex.msg_lev = GLP_MSG_OFF;
  simplex.presolve = GLP_OFF;
  simplex.tm_lim = time_limit_ms;
  if (glp_simplex(p, &simplex) != 0 || glp_get_status(p) != GLP_OPT) return out;
  const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - start_time)
                         .count();
  if (spent >= time_limit_ms) return out;
  Incumbent start{&incumbent, static_cast<size_t>(n)};
  glp_iocp parm;
  glp_init_iocp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_OFF;
  parm.tm_lim = static_cast<int>(time_limit_ms - spent);
  // Cuts close the gap odd cycles of coverage leave in the relaxation (Gomory: the sum over a
  // cycle of n is at least ceil(n/2)); without them the search branches on every cycle.
  parm.gmi_cuts = GLP_ON;
  parm.mir_cuts = GLP_ON;
  parm.clq_cuts = GLP_ON;
  parm.cb_func = offer_incumbent;
  parm.cb_info = &start;
  const int ret = glp_intopt(p, &parm);
  const int status = glp_mip_status(p);
  if (status != GLP_OPT && status != GLP_FEAS) return out;
  out.optimal = ret == 0 && status == GLP_OPT;
  for (int k = 1; k <= n; ++k)
    if (glp_mip_col_val(p, k) > 0.5) out.chosen.push_back(static_cast<uint32_t>(k - 1));
  return out;
}

}  // namespace strata::cover
