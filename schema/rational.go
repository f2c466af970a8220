package schema

import (
	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/rattext"
	"github.com/claimcheck/claimcheck/rational"
)

func executeRational(lim rational.Limits, src string) (Output, error) {
	doc, m, err := root(src, len(rationalNames)+1, rationalNames, 0)
	if err != nil {
		return Output{}, err
	}
	defer release(doc)
	exprNode, claimNode, canonNode := &doc.Nodes[m[0]], &doc.Nodes[m[1]], &doc.Nodes[m[2]]
	if exprNode.Kind != jsontape.String {
		return Output{}, errs.Invalid("/expression", "expression must be a string, not "+exprNode.Kind.Noun())
	}
	in := rational.Input{Expression: doc.Str(exprNode)}
	// The contract checks the expression's text (step 2) before the types of
	// claimed_value (3) and require_canonical (4), so a type error waits for
	// the expression's check.
	var claimTypeErr, canonTypeErr *claimcheck.Error
	if claimNode.Kind == jsontape.String {
		in.ClaimedValue = doc.Str(claimNode)
	} else {
		claimTypeErr = errs.Invalid("/claimed_value", "claimed_value must be a string, not "+claimNode.Kind.Noun())
	}
	switch canonNode.Kind {
	case jsontape.True:
		in.RequireCanonical = true
	case jsontape.False:
	default:
		canonTypeErr = errs.Invalid("/require_canonical", "require_canonical must be a boolean, not "+canonNode.Kind.Noun())
	}
	if claimTypeErr != nil || canonTypeErr != nil {
		// Steps 2 to 4 in their order, as CheckRational runs them; one of
		// them fails.
		_, err := rattext.Inputs(rattext.Fields{Expression: in.Expression, ClaimedValue: in.ClaimedValue,
			ClaimType: claimTypeErr, CanonicalType: canonTypeErr}, lim.MaxExpressionBytes, lim.MaxValueDigits)
		return Output{}, err
	}
	res, err := rational.CheckRational(in, lim)
	if err != nil {
		return Output{}, err
	}
	out, err := res.AppendJSON(make([]byte, 0, 320))
	return output(out, err, res.Valid, string(res.Reason))
}
