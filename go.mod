module fray

go 1.26
