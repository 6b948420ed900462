func.func @main(%arg0: tensor<8xf32> {a = "oops}) {
  return
}
