sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>
