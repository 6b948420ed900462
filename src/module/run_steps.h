// The driver's two halves (run_passes.cc): the expansion of --pass specs
// into steps, and the run of those steps on one text. runPasses is the two
// together; the parts runner (module_parts.h) runs the steps on each part.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "module/pass_registry.h"
#include "shardbridge/base/result.h"
#include "shardbridge/module/convert_module.h"
#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {

// One pass of an expanded pipeline, with every option it reads.
struct Step {
  const PassDef* def;
  std::map<std::string, std::string, std::less<>> options;
};

// Pipelines expanded into their passes, each with its defaults, the
// pipeline's values and the options given. Errors: runPasses' for an
// unknown name or an unsupported option value.
Result<std::vector<Step>> expandSteps(const std::vector<PassSpec>& passes);

struct ImportSeed;
// Runs `steps` in order on `input` (runPasses without the expansion and
// without parts); `seed`, for a part of a module, goes to each pass
// (PassContext::importSeed). Errors: the first failing pass's, located in
// `input`.
Result<ConvertedModule> runSteps(std::string_view input, const std::vector<Step>& steps,
                                 const ImportSeed* seed = nullptr);

}  // namespace shardbridge::module
