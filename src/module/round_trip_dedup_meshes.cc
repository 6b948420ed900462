// placeholder
#include "module/pass.h"
namespace shardbridge::module {
Status runRoundTripDedupMeshes(PassContext&) { return okStatus(); }
}  // namespace shardbridge::module
