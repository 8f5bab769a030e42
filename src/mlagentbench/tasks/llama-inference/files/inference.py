"""Time how fast a 7-billion-parameter LLaMA model generates text on one GPU.

The block between the two DO NOT EDIT markers fixes the model, the data and the amount generated; the evaluator
refuses a script where it was changed. Everything after it may be rewritten to make generation faster.
"""
import time

import torch
from torch.utils.data import DataLoader
from transformers import LlamaForCausalLM, LlamaTokenizer, default_data_collator

#### DO NOT EDIT ######

generation_length = 1
context_length = 128

tokenizer = LlamaTokenizer.from_pretrained("model")
model = LlamaForCausalLM.from_pretrained("model").to("cuda")

# Every line of the WikiText-103 test text is one example; only those that fill the whole context are kept.
with open("wikitext-103/wiki.test.tokens", encoding="utf-8") as f:
    texts = f.readlines()
encoded = tokenizer(texts, truncation=True, max_length=context_length)
eval_dataset = [
    {"input_ids": ids, "attention_mask": mask}
    for ids, mask in zip(encoded["input_ids"], encoded["attention_mask"])
    if len(ids) == context_length
]

#################

batch_size = 4

eval_dataloader = DataLoader(eval_dataset, collate_fn=default_data_collator, batch_size=batch_size)

with torch.no_grad():
    model.eval()
    total_time = 0
    for idx, batch in enumerate(eval_dataloader):
        if idx == 100:
            break
        input_ids = batch["input_ids"].to("cuda")
        start_time = time.time()
        outputs = model.generate(input_ids=input_ids, max_length=generation_length + context_length)
        total_time += time.time() - start_time
    print("Average per token generation time: ", total_time / 100)
