#!/usr/bin/env bash
# sb_explain_hlo's JSON is byte for byte the document `shardbridge explain
# --json` prints, for a sharding from README's explain example.
set -euo pipefail
capi=$1 cli=$2
sharding='{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}'
mesh='<["x"=8, "y"=4]>'
diff <("$capi" explain "$sharding" "$mesh") <("$cli" explain --json --mesh "$mesh" "$sharding")
echo "sb_explain_hlo == shardbridge explain --json"
