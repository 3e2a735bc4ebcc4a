export * from './errors.js'
export * from './spec-types.js'
export * from './commands.js'
export * from './snapshot.js'
