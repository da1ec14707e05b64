package train

import (
	"fmt"

	"github.com/squall-chess/squall/engine/nnue"
)

func errWidth(h int) error {
	return fmt.Errorf("train: a model %d wide cannot become a network %d wide", h, nnue.Hidden)
}
