module github.com/squall-chess/squall

go 1.26
