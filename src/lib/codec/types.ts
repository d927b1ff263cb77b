export type DataType = 'uint32' | 'sint32' | 'uint64' | 'sint64' | 'string' | 'bytes' | 'boolean';

export interface SchemaProperty {
  readonly dataType?: DataType;
  readonly type?: string | readonly string[];
  readonly fieldNumber?: number;
  readonly items?: SchemaProperty;
  readonly properties?: Readonly<Record<string, SchemaProperty>>;
  readonly required?: readonly string[];
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly [keyword: string]: unknown;
}

/** A Klayr codec schema: an object schema whose properties carry `fieldNumber`s. */
export interface Schema extends SchemaProperty {
  readonly $id: string;
  readonly type: 'object';
  readonly properties: Readonly<Record<string, SchemaProperty>>;
}
