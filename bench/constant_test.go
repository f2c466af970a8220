package bench

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
)

var jsonMarshal = json.Marshal

// constEval evaluates an integer expression with go/parser and go/constant.
func constEval(src string) (constant.Value, error) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil, err
	}
	return constWalk(e)
}

func constWalk(e ast.Expr) (constant.Value, error) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.INT {
			return nil, fmt.Errorf("not an integer: %s", e.Value)
		}
		return constant.MakeFromLiteral(e.Value, e.Kind, 0), nil
	case *ast.ParenExpr:
		return constWalk(e.X)
	case *ast.UnaryExpr:
		x, err := constWalk(e.X)
		if err != nil {
			return nil, err
		}
		if e.Op != token.SUB {
			return nil, fmt.Errorf("unary %s", e.Op)
		}
		return constant.UnaryOp(token.SUB, x, 0), nil
	case *ast.BinaryExpr:
		x, err := constWalk(e.X)
		if err != nil {
			return nil, err
		}
		y, err := constWalk(e.Y)
		if err != nil {
			return nil, err
		}
		switch e.Op {
		case token.ADD, token.SUB, token.MUL:
			return constant.BinaryOp(x, e.Op, y), nil
		case token.QUO:
			if constant.Sign(y) == 0 {
				return nil, fmt.Errorf("division by zero")
			}
			// QUO on integer constants is exact rational division
			// (QUO_ASSIGN would truncate).
			return constant.BinaryOp(x, token.QUO, y), nil
		}
		return nil, fmt.Errorf("operator %s", e.Op)
	}
	return nil, fmt.Errorf("unsupported %T", e)
}
