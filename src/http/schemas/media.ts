/**
 * @module http/schemas/media
 * The objects of SPEC "Media and other objects", and their mapping onto the protocol's input types. Mappers
 * build each object field by field, so unknown client fields never travel further.
 */
import { z } from 'zod'
import type {
  AudioInput,
  ContactInput,
  DocumentInput,
  ImageInput,
  LocationInput,
  VideoInput,
} from '../../protocol/spec-types.js'
import {
  coordinate,
  httpUrl,
  optionalHttpUrl,
  optionalString,
  phoneNumber,
  positiveNumber,
  requiredString,
} from './fields.js'

export const imageSchema = z.object({ url: httpUrl(), mimetype: requiredString(), thumbnail: optionalHttpUrl() })
export const videoSchema = z.object({
  url: httpUrl(),
  mimetype: requiredString(),
  duration: positiveNumber(),
  thumbnail: optionalHttpUrl(),
})
export const audioSchema = z.object({ url: httpUrl(), mimetype: requiredString(), duration: positiveNumber() })
export const documentSchema = z.object({
  url: httpUrl(),
  name: requiredString(),
  size: positiveNumber(),
  mimetype: requiredString(),
})
export const locationSchema = z.object({
  latitude: coordinate(90),
  longitude: coordinate(180),
  name: optionalString(),
  address: optionalString(),
})
export const contactSchema = z.object({ name: requiredString(), phone: phoneNumber() })

export function toImage(v: z.output<typeof imageSchema>): ImageInput {
  const image: ImageInput = { url: v.url, mimetype: v.mimetype }
  if (v.thumbnail !== undefined) image.thumbnail = v.thumbnail
  return image
}

export function toVideo(v: z.output<typeof videoSchema>): VideoInput {
  const video: VideoInput = { url: v.url, mimetype: v.mimetype, duration: v.duration }
  if (v.thumbnail !== undefined) video.thumbnail = v.thumbnail
  return video
}

export const toAudio = (v: z.output<typeof audioSchema>): AudioInput => ({
  url: v.url,
  mimetype: v.mimetype,
  duration: v.duration,
})

export const toDocument = (v: z.output<typeof documentSchema>): DocumentInput => ({
  url: v.url,
  name: v.name,
  size: v.size,
  mimetype: v.mimetype,
})

export function toLocation(v: z.output<typeof locationSchema>): LocationInput {
  const location: LocationInput = { latitude: v.latitude, longitude: v.longitude }
  if (v.name !== undefined) location.name = v.name
  if (v.address !== undefined) location.address = v.address
  return location
}

export const toContact = (v: z.output<typeof contactSchema>): ContactInput => ({ name: v.name, phone: v.phone })
