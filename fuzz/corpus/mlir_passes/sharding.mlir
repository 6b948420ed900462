#sdy.sharding<@mesh, [{"y"}, {"x":(1)2, ?}], replicated={"z"}>
