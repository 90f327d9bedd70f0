"""A chat over a list of questions, echoing each answer into the history as a dict with its role."""

from openai import OpenAI


def main() -> None:
    client = OpenAI()
    history = [{"role": "system", "content": "You are a terse assistant."}]
    for question in ["Name a planet.", "And its largest moon?"]:
        history.append({"role": "user", "content": question})
        completion = client.responses.create(model="gpt-4o-mini", input=history)
        history.append({"role": "assistant", "content": completion.output_text})
        print(f"{'assistant'}: {completion.output_text}")
    print([entry["role"] for entry in history])


if __name__ == "__main__":
    main()
