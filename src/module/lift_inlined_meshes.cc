// placeholder
#include "module/pass.h"
namespace shardbridge::module {
Status runLiftInlinedMeshes(PassContext&) { return okStatus(); }
}  // namespace shardbridge::module
