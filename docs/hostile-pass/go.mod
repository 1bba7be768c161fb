module tptools

go 1.26
