module plait/tools/exprtable

go 1.19

require github.com/antonmedv/expr v1.8.9

replace github.com/antonmedv/expr => /usr/share/gocode/src/github.com/antonmedv/expr
