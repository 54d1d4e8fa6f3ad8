/** The legal actions of one type, narrowed to it: `legalOf(options, "attack")`. */
export function legalOf(options, type) {
    return options.actions.filter((action) => action.type === type);
}
/** A legal value of one parameter: its first choice, else an integer's minimum (`undefined`: none to pick). */
function firstValue(spec) {
    if (Array.isArray(spec.choices))
        return spec.choices[0];
    if (spec.type === "integer")
        return spec.minimum ?? 0;
    return undefined;
}
/**
 * The action a legal action allows, for `actor`: each parameter's value from `values`, else, for a
 * required one, its first legal choice (or an integer's minimum). `null` when a required parameter
 * has no value (an object or a sheet to write, a string to type): pass it in `values`.
 * `ruleset` types the answer: `act<R>` takes it as it is.
 */
export function actionFrom(ruleset, legal, actor, values = {}) {
    void ruleset; // only its type is needed: the legal action's parameters carry the rest
    const action = { type: legal.type, actor };
    const given = values;
    for (const [name, spec] of Object.entries(legal.params)) {
        const value = name in given ? given[name] : spec.required ? firstValue(spec) : undefined;
        if (value === undefined) {
            if (spec.required)
                return null;
            continue;
        }
        action[name] = value;
    }
    return action;
}
