// Test oracle: runs nsfwjs itself (pure-JS TensorFlow.js CPU backend) on raw RGB images and
// prints one JSON array of the five class probabilities per image, in nsfwjs class order
// (drawing, hentai, neutral, porn, sexy).
// Usage: node nsfwjs_oracle.js <node_modules dir> <MobileNetV2|MobileNetV2Mid|InceptionV3> <file>...
// Each file: uint32 LE width, uint32 LE height, then width*height*3 bytes of RGB.
"use strict";
const fs = require("fs");
const path = require("path");

async function main() {
  const [modules, modelName, ...files] = process.argv.slice(2);
  const tf = require(path.join(modules, "@tensorflow/tfjs"));
  await tf.setBackend("cpu");
  const nsfwjs = require(path.join(modules, "nsfwjs"));
  console.info = () => {};
  const model = await nsfwjs.load(modelName);
  for (const file of files) {
    const data = fs.readFileSync(file);
    const w = data.readUInt32LE(0);
    const h = data.readUInt32LE(4);
    const pixels = new Int32Array(w * h * 3);
    for (let i = 0; i < pixels.length; i++) pixels[i] = data[8 + i];
    const image = tf.tensor3d(pixels, [h, w, 3], "int32");
    const probs = model.infer(image);
    console.log(JSON.stringify(Array.from(await probs.data())));
    probs.dispose();
    image.dispose();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
