// Parse errors of `shardbridge sdy`: the message, and where the caret goes.

// expected-error {{expected '#sdy.mesh', '#sdy.sharding', '#sdy.sharding_per_value' or 'sdy.mesh', got '#sdy.foo'}}
// expected-error-at {{1:1}}
#sdy.foo<[]>

// -----
// expected-error {{expected '<' to open mesh, got '['}}
// expected-error-at {{1:10}}
#sdy.mesh["a"=2]

// -----
// expected-error {{expected quoted mesh axis name, got 'a'}}
// expected-error-at {{1:12}}
#sdy.mesh<[a=2]>

// -----
// expected-error {{expected '=' after mesh axis name, got '2'}}
// expected-error-at {{1:15}}
#sdy.mesh<["a"2]>

// -----
// expected-error {{expected integer mesh axis size, got '1.5'}}
// expected-error-at {{1:16}}
#sdy.mesh<["a"=1.5]>

// -----
// expected-error {{integer value too large}}
// expected-error-at {{1:16}}
#sdy.mesh<["a"=99999999999999999999]>

// -----
// expected-error {{expected ']' to close mesh axes, got '"b"'}}
// expected-error-at {{1:18}}
#sdy.mesh<["a"=2 "b"=2]>

// -----
// expected-error {{expected 'device_ids' after ',' in mesh, got 'devices'}}
// expected-error-at {{1:20}}
#sdy.mesh<["a"=2], devices=[1, 0]>

// -----
// expected-error {{expected integer device id, got ']'}}
// expected-error-at {{1:27}}
#sdy.mesh<[], device_ids=[]>

// -----
// expected-error {{expected ']' to close device list, got '1'}}
// expected-error-at {{1:34}}
#sdy.mesh<["a"=2], device_ids=[0 1]>

// -----
// expected-error {{expected '>' to close mesh, got end of input}}
// expected-error-at {{1:18}}
#sdy.mesh<["a"=2]

// -----
// expected-error {{expected end of input after the attribute, got '>'}}
// expected-error-at {{1:19}}
#sdy.mesh<["a"=2]>>

// -----
// expected-error {{expected '"' in string literal}}
// expected-error-at {{1:18}}
#sdy.mesh<["a=2]>

// -----
// expected-error {{unknown escape in string literal}}
// expected-error-at {{1:14}}
#sdy.mesh<["a\q"=2]>

// -----
// expected-error {{unexpected character '$'}}
// expected-error-at {{1:12}}
#sdy.mesh<[$]>

// -----
// expected-error {{expected '@' mesh name after 'sdy.mesh', got 'mesh'}}
// expected-error-at {{1:10}}
sdy.mesh mesh = <[]>

// -----
// expected-error {{@ identifier expected to start with letter or '_'}}
// expected-error-at {{1:11}}
sdy.mesh @1 = <[]>

// -----
// expected-error {{expected '@' mesh name or 'mesh<...>', got '"mesh"'}}
// expected-error-at {{1:15}}
#sdy.sharding<"mesh", [{}]>

// -----
// expected-error {{expected ',' after the mesh of a sharding, got '['}}
// expected-error-at {{1:21}}
#sdy.sharding<@mesh [{}]>

// -----
// expected-error {{expected '{' to open dimension sharding, got '"a"'}}
// expected-error-at {{1:23}}
#sdy.sharding<@mesh, ["a"]>

// -----
// expected-error {{expected ',' or '}' in dimension sharding, got '"b"'}}
// expected-error-at {{1:28}}
#sdy.sharding<@mesh, [{"a" "b"}]>

// -----
// expected-error {{expected '}' after '?' in dimension sharding, got ','}}
// expected-error-at {{1:25}}
#sdy.sharding<@mesh, [{?, "a"}]>

// -----
// expected-error {{expected '(' after ':' in sub-axis, got '2'}}
// expected-error-at {{1:28}}
#sdy.sharding<@mesh, [{"a":2}]>

// -----
// expected-error {{expected ']' to close dimension shardings, got '{'}}
// expected-error-at {{1:26}}
#sdy.sharding<@mesh, [{} {}]>

// -----
// expected-error {{expected '>' to close sharding, got end of input}}
// expected-error-at {{1:26}}
#sdy.sharding<@mesh, [{}]

// -----
// expected-error {{expecting priority in format 'p<number>', got: phigh}}
// expected-error-at {{1:34}}
#sdy.sharding<@foo, [{"a"}, {"b"}phigh]>

// -----
// expected-error {{expecting integer priority, got: p9999999999999999999}}
// expected-error-at {{1:34}}
#sdy.sharding<@foo, [{"a"}, {"b"}p9999999999999999999]>

// -----
// expected-error {{priorities with leading zeros are not allowed, got: p01}}
// expected-error-at {{1:27}}
#sdy.sharding<@foo, [{"a"}p01, {"b"}]>

// -----
// expected-error {{failed to parse Sdy_TensorSharding parameter 'replicated_axes'}}
// expected-error-at {{1:35}}
#sdy.sharding<@m, [{}], replicated{"a"}>

// -----
// expected-error {{failed to parse axis list which is expected to be an `ArrayRef<AxisRefAttr>`}}
// expected-error-at {{1:37}}
#sdy.sharding<@m, [{}], replicated={}>

// -----
// expected-error {{failed to parse Sdy_TensorSharding parameter 'unreduced_axes'}}
// expected-error-at {{1:35}}
#sdy.sharding<@m, [{}], unreduced=avg{"a"}>

// -----
// expected-error {{failed to parse Sdy_TensorSharding, expected valid named axis list after comma}}
// expected-error-at {{1:24}}
#sdy.sharding<@m, [{}],>

// -----
// expected-error {{failed to parse Sdy_TensorSharding, expected valid named axis list after comma}}
// expected-error-at {{1:43}}
#sdy.sharding<@m, [{}], replicated={"a"}, replicated={"b"}>

// -----
// expected-error {{expected '<' to open sharding, got '@m'}}
// expected-error-at {{1:26}}
#sdy.sharding_per_value<[@m, []]>

// -----
// expected-error {{expected ']' to close the list of shardings, got '<'}}
// expected-error-at {{1:35}}
#sdy.sharding_per_value<[<@m, []> <@m, []>]>

// -----
// Errors past the first line are located by line and column.
// expected-error {{expected ']' to close mesh axes, got '"b"'}}
// expected-error-at {{2:3}}
#sdy.mesh<["a"=2
  "b"=2]>
