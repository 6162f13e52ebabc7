// no-restricted-syntax selectors for explicit transactions (issue 24, point 4), used by
// eslint.config.mjs and pinned by tests/eslint-transaction-rules.test.ts.
const CLIENT = '/^(Tx|Db)$/';
// transaction(fn), core.transaction(fn), and Prisma's own client.$transaction(fn).
const TRANSACTION_CALL =
  "CallExpression:matches([callee.name='transaction'], [callee.property.name=/^[$]?transaction$/])";

export const TRANSACTION_RULES = [
  {
    selector: "AssignmentPattern[right.type='CallExpression'][right.callee.name='db']",
    message: 'No `= db()` default: take the client or transaction as a required parameter, and let the caller pass it.',
  },
  {
    selector: `AssignmentPattern[left.typeAnnotation.typeAnnotation.typeName.name=${CLIENT}]:not([right.callee.name='db'])`,
    message: 'A Tx/Db parameter has no default: the caller passes its transaction or db() explicitly.',
  },
  {
    selector: `:matches(Identifier, TSPropertySignature)[optional=true][typeAnnotation.typeAnnotation.typeName.name=${CLIENT}]`,
    message: 'A Tx/Db parameter is required: the caller passes its transaction or db() explicitly.',
  },
  {
    selector: `:matches(Identifier, TSPropertySignature)[typeAnnotation.typeAnnotation.type='TSUnionType']:has(TSUndefinedKeyword):has(TSTypeReference[typeName.name=${CLIENT}])`,
    message: 'A Tx/Db parameter is not `| undefined`: the caller passes its transaction or db() explicitly.',
  },
  {
    selector: `${TRANSACTION_CALL} :function CallExpression[callee.name='db'][arguments.length=0]`,
    message:
      'db() inside a transaction runs outside it (and waits for it on the embedded database): use the transaction the callback was given.',
  },
];
