package schema

import (
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontext"
	"github.com/claimcheck/claimcheck/internal/rattext"
	"github.com/claimcheck/claimcheck/rational"
)

func (t *Tool) executeRational(src string) ([]byte, error) {
	lim := rational.Limits{
		MaxExpressionBytes: t.Limit("max_expression_bytes"),
		MaxTokens:          t.Limit("max_tokens"),
		MaxDepth:           t.Limit("max_depth"),
		MaxValueDigits:     t.Limit("max_value_digits"),
	}
	doc, err := parse(src, len(rationalNames)+1, false)
	if err != nil {
		return nil, err
	}
	defer release(doc)
	var m [3]int
	if err := object(doc, 0, "", rationalNames, m[:]); err != nil {
		return nil, err
	}
	exprNode, claimNode, canonNode := &doc.Nodes[m[0]], &doc.Nodes[m[1]], &doc.Nodes[m[2]]
	if exprNode.Kind != jsontext.String {
		return nil, errs.Invalid("/expression", "expression must be a string, not "+kindName(exprNode.Kind))
	}
	in := rational.Input{Expression: doc.Str(exprNode)}
	// The contract checks the expression's text (step 2) before the types of
	// claimed_value (3) and require_canonical (4), so a type error waits for
	// the expression's check.
	var claimTypeErr, canonTypeErr error
	if claimNode.Kind == jsontext.String {
		in.ClaimedValue = doc.Str(claimNode)
	} else {
		claimTypeErr = errs.Invalid("/claimed_value", "claimed_value must be a string, not "+kindName(claimNode.Kind))
	}
	switch canonNode.Kind {
	case jsontext.True:
		in.RequireCanonical = true
	case jsontext.False:
	default:
		canonTypeErr = errs.Invalid("/require_canonical", "require_canonical must be a boolean, not "+kindName(canonNode.Kind))
	}
	if claimTypeErr != nil || canonTypeErr != nil {
		if err := rattext.Expression(in.Expression, lim.MaxExpressionBytes); err != nil {
			return nil, err
		}
		if claimTypeErr != nil {
			return nil, claimTypeErr
		}
		if _, _, _, err := rattext.Claim(in.ClaimedValue, lim.MaxValueDigits); err != nil {
			return nil, err
		}
		return nil, canonTypeErr
	}
	res, err := rational.CheckRational(in, lim)
	if err != nil {
		return nil, err
	}
	return res.AppendJSON(make([]byte, 0, 320))
}
