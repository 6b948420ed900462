// Axis algebra (facts §3): ordering, merging, containment and overlap of axis
// refs, and the orderings of a sharding's axes against its mesh.
//
// (Declarations are added by the algebra work; see attrs.h for the model.)
#pragma once

#include "shardbridge/sdy/attrs.h"
